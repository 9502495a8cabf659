import type { SpanSink } from './span-sinks.js';
import type { ToolCallSpan } from './tool-call-span.js';

/**
 * The part of `@opentelemetry/api` the sink uses, described here so that Switchyard's types do not
 * depend on the package: pass the module itself (`import * as api from '@opentelemetry/api'`).
 */
export interface OtelApi {
  readonly trace: {
    /** The tracer named `name`. */
    getTracer(name: string): OtelTracer;
    /** A context with `span` as its active span (the parent of the layer spans). */
    setSpan(context: unknown, span: OtelSpan): unknown;
  };
  readonly context: {
    /** The active context, where the tool span starts. */
    active(): unknown;
  };
  readonly SpanKind: { readonly INTERNAL: number };
  readonly SpanStatusCode: { readonly ERROR: number };
}

/** The part of an OpenTelemetry `Tracer` the sink uses. */
export interface OtelTracer {
  /** Starts a span (`execute_tool …` or a layer's child span). */
  startSpan(
    name: string,
    options: { kind?: number; startTime?: number; attributes?: Record<string, unknown> },
    context?: unknown,
  ): OtelSpan;
}

/** The part of an OpenTelemetry `Span` the sink uses. */
export interface OtelSpan {
  /** Records an event of the call (`tool_call.dispatched`, a guardrail that tripped, …) at `time`. */
  addEvent(name: string, attributes?: Record<string, unknown>, time?: number): unknown;
  /** Set only when the call failed: `ERROR`, with the error as its message. */
  setStatus(status: { code: number; message?: string }): unknown;
  /** Ends the span at `endTime`. */
  end(endTime?: number): void;
}

/**
 * Hands spans to OpenTelemetry through `@opentelemetry/api`, so whatever SDK and exporter the
 * application registered receives them. Layer spans become children. A span's status is set only
 * on failure (`ERROR`, with the error as its message); otherwise it stays unset, as the
 * conventions ask. `api`: the module; default,
 * it is imported by name when the first span is exported (install it beside Switchyard).
 */
export function otelSpanSink(options: { tracerName?: string; api?: OtelApi } = {}): SpanSink {
  let api: Promise<OtelApi> | undefined =
    options.api === undefined ? undefined : Promise.resolve(options.api);
  const load = () => {
    // A variable specifier: the package is the application's, not one of Switchyard's dependencies.
    const name = '@opentelemetry/api';
    api ??= (import(name) as Promise<OtelApi>).catch((error: unknown) => {
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
      for (const event of span.events) {
        parent.addEvent(event.name, event.attributes ?? {}, event.timeMs);
      }
      const context = otel.trace.setSpan(otel.context.active(), parent);
      for (const child of span.children) {
        const layer = tracer.startSpan(
          child.name,
          { startTime: span.startTimeMs, attributes: child.attributes },
          context,
        );
        // The status of a span that ended without an error stays unset (recording-errors.md:
        // "MUST be left unset"); OK is for an application to override an error with.
        if (child.status === 'error') layer.setStatus({ code: otel.SpanStatusCode.ERROR });
        layer.end(span.endTimeMs);
      }
      if (span.status === 'error') {
        parent.setStatus(
          span.statusMessage === undefined
            ? { code: otel.SpanStatusCode.ERROR }
            : { code: otel.SpanStatusCode.ERROR, message: span.statusMessage },
        );
      }
      parent.end(span.endTimeMs);
    },
  };
}
