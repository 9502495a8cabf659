import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import type { ToolCallResult } from '../dispatch/result.js';
import type { ToolCaller } from '../dispatch/tool-caller.js';
import { InvalidOptionError } from '../errors.js';
import { cancelledResultOf } from './cancelled-result-of.js';
import { type LayerStage, Passage, stageLayer } from './layer-stage.js';
import { type LangfuseSinkOptions, langfuseSpanSink } from './telemetry/langfuse-span-sink.js';
import { otelSpanSink } from './telemetry/otel-span-sink.js';
import {
  fanOutSpanSink,
  noopSpanSink,
  type SpanSink,
  stderrSpanSink,
} from './telemetry/span-sinks.js';
import { type SpanOptions, type ToolCallSpan, toolCallSpan } from './telemetry/tool-call-span.js';

/** A sink: a function, a built-in name, or a `SpanSink` object. */
export type TelemetrySink =
  | ((span: ToolCallSpan) => void | Promise<void>)
  | 'otel'
  | 'langfuse'
  | 'stderr'
  | 'noop'
  | SpanSink;

/**
 * Options of `withTelemetry`: the sink (or sinks), what spans record, and how sink failures are
 * reported.
 */
export interface TelemetryOptions extends SpanOptions {
  readonly sink?: TelemetrySink;
  /** Several sinks at once (fan-out); each failure is reported on its own. */
  readonly sinks?: readonly TelemetrySink[];
  /**
   * Receives sink failures. Default: ignored. What it throws or rejects with is dropped: a failing
   * reporter never breaks a call nor causes an unhandled rejection.
   */
  readonly onError?: (error: unknown) => unknown;
  /** Wall clock in ms since the epoch (span times). Default `Date.now`. */
  readonly now?: () => number;
  /** Options of the `langfuse` sink (credentials default to the LANGFUSE_* environment). */
  readonly langfuse?: LangfuseSinkOptions;
}

/** `report` made safe to call anywhere: it never throws, and its rejections are dropped. */
function guardedReporter(
  report: ((error: unknown) => unknown) | undefined,
): (error: unknown) => void {
  if (report === undefined) return () => {};
  return (error) => {
    try {
      const returned: unknown = report(error);
      if (typeof (returned as PromiseLike<void> | undefined)?.then === 'function')
        Promise.resolve(returned).catch(() => {});
    } catch {
      // The reporter itself failed: there is nowhere left to report to.
    }
  };
}

const LAYER = 'with_telemetry';

/**
 * The telemetry layer, with `flush()`: resolves once the spans of the calls made so far are
 * handed to the sinks and the sinks that batch have sent them.
 */
export type TelemetryCaller = ToolCaller & {
  /** Resolves once the spans of the calls made so far are with the sinks, and sent by those that batch. */
  flush(): Promise<void>;
};

function resolveSink(
  spec: TelemetrySink,
  options: TelemetryOptions,
  onError: (error: unknown) => void,
): SpanSink {
  if (typeof spec === 'function') return { export: spec };
  if (typeof spec === 'object' && spec !== null && typeof spec.export === 'function') return spec;
  switch (spec) {
    case 'noop':
      return noopSpanSink;
    case 'stderr':
      return stderrSpanSink();
    case 'otel':
      return otelSpanSink();
    case 'langfuse':
      return langfuseSpanSink(options.langfuse ?? {}, onError);
    default:
      throw new InvalidOptionError(
        'sink',
        `withTelemetry: unknown sink ${JSON.stringify(spec)}; expected a function, otel, langfuse, stderr or noop`,
      );
  }
}

/**
 * Emits one span per call, shaped by the OpenTelemetry GenAI conventions (`execute_tool {tool}`,
 * `gen_ai.operation.name`, `gen_ai.tool.name`, `gen_ai.tool.call.id`, `gen_ai.tool.type`,
 * `error.type`, opt-in arguments and result), with a child span per audit layer. Spans go to the
 * sinks off the call's path; a sink that fails never breaks the call.
 *
 * @example
 * const telemetry = withTelemetry({ sinks: ['otel', 'langfuse'], recordArguments: true });
 */
export function withTelemetry(
  sinkOrOptions: TelemetrySink | TelemetryOptions = 'noop',
): TelemetryCaller {
  const stage = telemetryStage(sinkOrOptions);
  return Object.assign(stageLayer(stage), { flush: stage.flush });
}

/** The stage of `withTelemetry`, with `flush()` for sinks that batch. */
export function telemetryStage(
  sinkOrOptions: TelemetrySink | TelemetryOptions = 'noop',
): LayerStage & { flush(): Promise<void> } {
  const options: TelemetryOptions =
    typeof sinkOrOptions === 'object' && sinkOrOptions !== null && !('export' in sinkOrOptions)
      ? sinkOrOptions
      : { sink: sinkOrOptions as TelemetrySink };
  const onError = guardedReporter(options.onError);
  const specs = options.sinks ?? [options.sink ?? 'noop'];
  const resolved = specs.map((spec) => resolveSink(spec, options, onError));
  const sink = resolved.length === 1 ? resolved[0]! : fanOutSpanSink(resolved, onError);
  const now = options.now ?? Date.now;
  /**
   * Exports still running (a sink that loads its SDK first, a function that sends): `flush()`
   * waits for them, so a tracer shut down after it has every span of the calls made before.
   */
  const exporting = new Set<Promise<void>>();

  /** Sends the span of a call that ended at `endTimeMs`. */
  function emit(call: ToolCallEnvelope, result: ToolCallResult, startTimeMs: number): number {
    const endTimeMs = now();
    // Spans nobody receives are not built.
    if (sink === noopSpanSink) return endTimeMs;
    try {
      const span = toolCallSpan(call, result, { startTimeMs, endTimeMs }, options);
      const exported = sink.export(span);
      if (exported !== undefined) {
        const settled = Promise.resolve(exported).then(undefined, onError);
        exporting.add(settled);
        void settled.then(() => exporting.delete(settled));
      }
    } catch (error) {
      onError(error);
    }
    return endTimeMs;
  }

  return {
    name: LAYER,
    enter(call) {
      const started = now();
      return new Passage(call, {
        leave(result, audit) {
          const elapsedMs = emit(call, result, started) - started;
          return audit.record(result, { name: LAYER, status: 'ok', elapsedMs });
        },
        failed(error) {
          const cancelled = cancelledResultOf(call, error);
          if (cancelled !== undefined) emit(call, cancelled, started);
          throw error;
        },
      });
    },
    async flush() {
      while (exporting.size > 0) await Promise.all(exporting);
      await sink.flush?.();
    },
  };
}
