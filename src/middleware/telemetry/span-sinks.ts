import type { ToolCallSpan } from './tool-call-span.js';

/** Receives finished spans. Errors (thrown or rejected) are reported, never raised into the call. */
export interface SpanSink {
  /** Takes one call's span; a sink that fails never fails the call. */
  export(span: ToolCallSpan): void | Promise<void>;
  /** Sends what is buffered (sinks that batch). */
  flush?(): Promise<void>;
}

/** Drops spans. */
export const noopSpanSink: SpanSink = { export() {} };

/** Writes one JSON line per span to standard error. */
export function stderrSpanSink(stream: NodeJS.WritableStream = process.stderr): SpanSink {
  return {
    export(span) {
      stream.write(`[switchyard.span] ${JSON.stringify(span)}\n`);
    },
  };
}

/** Sends each span to every sink; one sink failing does not stop the others. */
export function fanOutSpanSink(
  sinks: readonly SpanSink[],
  onError: (error: unknown) => void,
): SpanSink {
  return {
    async export(span) {
      await Promise.all(
        sinks.map(async (sink) => {
          try {
            await sink.export(span);
          } catch (error) {
            onError(error);
          }
        }),
      );
    },
    async flush() {
      await Promise.all(sinks.map((sink) => sink.flush?.().catch(onError)));
    },
  };
}
