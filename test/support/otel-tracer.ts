import * as otel from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/**
 * The real OpenTelemetry SDK registered as the global tracer provider, its spans kept in memory:
 * `register()` in a test, `reset()` after each (`afterEach(tracer.reset)`).
 */
export function otelTracer(): {
  register(): InMemorySpanExporter;
  reset(): Promise<void>;
  /** Shuts the provider down now, as an application would at exit. */
  shutdown(): Promise<void>;
} {
  let provider: BasicTracerProvider | undefined;
  return {
    register() {
      const exporter = new InMemorySpanExporter();
      provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
      otel.trace.setGlobalTracerProvider(provider);
      return exporter;
    },
    async reset() {
      otel.trace.disable();
      await provider?.shutdown();
      provider = undefined;
    },
    async shutdown() {
      await provider?.shutdown();
      provider = undefined;
    },
  };
}
