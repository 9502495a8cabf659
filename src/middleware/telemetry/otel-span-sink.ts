import type { SpanSink } from './span-sinks.js';
import type { ToolCallSpan } from './tool-call-span.js';

type OtelApi = typeof import('@opentelemetry/api');

/**
 * Hands spans to OpenTelemetry through `@opentelemetry/api` (an optional peer dependency), so
 * whatever SDK and exporter the application registered receives them. Layer spans become children.
 */
export function otelSpanSink(options: { tracerName?: string; api?: OtelApi } = {}): SpanSink {
  let api: Promise<OtelApi> | undefined =
    options.api === undefined ? undefined : Promise.resolve(options.api);
  const load = () => {
    api ??= import('@opentelemetry/api').catch((error: unknown) => {
      throw new Error(`the otel sink needs @opentelemetry/api installed: ${String(error)}`);
    });
    return api;
  };
  return {
    async export(span: ToolCallSpan) {
      const otel = await load();
      const tracer = otel.trace.getTracer(options.tracerName ?? 'switchyard');
      const parent = tracer.startSpan(span.name, {
        kind: otel.SpanKind.INTERNAL,
        startTime: span.startTimeMs,
        attributes: span.attributes,
      });
      for (const event of span.events) parent.addEvent(event.name, event.timeMs);
      const context = otel.trace.setSpan(otel.context.active(), parent);
      for (const child of span.children) {
        const layer = tracer.startSpan(
          child.name,
          { startTime: span.startTimeMs, attributes: child.attributes },
          context,
        );
        layer.setStatus({
          code: child.status === 'ok' ? otel.SpanStatusCode.OK : otel.SpanStatusCode.ERROR,
        });
        layer.end(span.endTimeMs);
      }
      parent.setStatus(
        span.status === 'ok'
          ? { code: otel.SpanStatusCode.OK }
          : {
              code: otel.SpanStatusCode.ERROR,
              ...(span.statusMessage === undefined ? {} : { message: span.statusMessage }),
            },
      );
      parent.end(span.endTimeMs);
    },
  };
}
