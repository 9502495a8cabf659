import { performance } from 'node:perf_hooks';
import { turnCancellationOf } from '../cancellation.js';
import { modelTokenShares } from '../dispatch/model-token-share.js';
import type { ProposedCall } from '../dispatch/proposed-call.js';
import type { ToolCallResult } from '../dispatch/result.js';
import { CancelledError, errorMessage, InvalidArgumentError } from '../errors.js';
import { AsyncQueue } from './async-queue.js';
import type { PartialUpdateScheduler } from './detect/partial-update-scheduler.js';
import type {
  CandidatePromotedEvent,
  CandidateRetractedEvent,
  DetectorEvent,
  DetectorListener,
  ProviderNativeCallEvent,
  ToolCallDetector,
} from './detector-events.js';
import { type EagerPolicy, eagerGate } from './eager-start.js';
import { createNativeDetector } from './native-detector.js';
import { createTextDetector } from './text-detector.js';
import type { ProviderContent, ToolCallDelta } from './tool-call-delta.js';
import type { DispatchTurnOptions } from './turn-options.js';
import { TurnRun } from './turn-run.js';

/** Options of `dispatchStreamedTurn`: a turn's options plus where its calls stream from. */
export interface StreamedTurnOptions extends DispatchTurnOptions {
  /** The model's response as deltas, e.g. `model.stream(request)`. */
  readonly deltas: AsyncIterable<ToolCallDelta>;
  /** `native` (default): the provider's tool-call deltas; `text`: calls written in the text. */
  readonly toolCalling?: 'native' | 'text';
  /**
   * Start calls while the model is still streaming: `true` (default) for tools that
   * `isSafeToStartEarly` allows, `false` to hold every call until the response ends, or a
   * policy of your own. Held calls keep their place in planner order.
   */
  readonly eager?: boolean | EagerPolicy;
  /** Receives every detector event (candidates, partial arguments, text) as it happens. */
  readonly onDetectorEvent?: DetectorListener;
  /** Coalescing window of partial-argument events (native detector). Default 50 ms. */
  readonly coalesceMs?: number | false;
  /** Times the coalesced partial updates. Default: real time. */
  readonly scheduler?: PartialUpdateScheduler;
}

/** How a candidate ended: promoted and dispatched, retracted, or run by the provider. */
export type SettledCandidate =
  | CandidatePromotedEvent
  | CandidateRetractedEvent
  | ProviderNativeCallEvent;

/** What one streamed turn produced. */
export interface StreamedTurn {
  /** `completed` when the response ended normally; `failed` when the stream threw or aborted. */
  readonly outcome: 'completed' | 'failed';
  /** What the stream threw (`ModelError`, `CancelledError`, …) when the outcome is `failed`. */
  readonly error: unknown;
  /** Every `text` delta, as the model wrote it (calls included, for text-mode models). */
  readonly text: string;
  /** The text outside tool calls, as the detector passed it on. */
  readonly prose: string;
  readonly finish: {
    readonly reason: string;
    readonly safe: boolean;
    /** The provider paused the turn: send it back as it is to let the model carry on. */
    readonly paused?: boolean;
  } | null;
  /** The provider's own record of the response, when it sent one (see `provider_content`). */
  readonly providerContent: ProviderContent | null;
  /** The body of a text-mode `<done>` block, when the model wrote one. */
  readonly doneMarker: string | null;
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number } | null;
  /** Every candidate the model opened, in the order it opened them, as it ended. */
  readonly candidates: readonly SettledCandidate[];
  /** One result per promoted call, in planner order. */
  readonly results: readonly ToolCallResult[];
  /** `performance.now()` when the model's stream ended, and when the last result settled. */
  readonly streamEndedAt: number;
  readonly settledAt: number;
}

/**
 * Dispatches the calls of a model turn while it streams. The detector turns deltas into calls;
 * each promoted call enters the same bounded, safety-aware fan-out as `dispatchTurn`, and starts
 * at once when the eager policy allows it (otherwise when the response has ended). Calls held
 * until the response ended carry their share of the turn's tokens (`ToolCallEnvelope.modelTokens`)
 * when the provider reported usage; eager calls started before it did not. Results are in
 * planner order. If the stream fails or the turn's signal aborts, nothing held back ever runs,
 * running eager calls see their signal abort, and every promoted call still yields one result
 * (`cancelled`); the outcome is `failed` and the error is kept. Never rejects for what the model
 * or a tool did.
 *
 * @example
 * const turn = await dispatchStreamedTurn({ deltas: model.stream(request), dispatcher, maxConcurrentTools: 4 });
 * turn.results; // planner order; safe calls started before the model finished
 */
export async function dispatchStreamedTurn(options: StreamedTurnOptions): Promise<StreamedTurn> {
  const { dispatcher } = options;
  const registry = dispatcher.registry;
  const calls = new AsyncQueue<ProposedCall>();
  const results: ToolCallResult[] = [];
  const run = new TurnRun({
    turn: options,
    source: calls,
    deliver: (result) => results.push(result),
    gate: eagerGate(registry, options.eager),
    cancellable: true,
  });

  const advertised =
    options.advertised ?? new Set(registry.modelDefinitions().map((d) => d.canonicalName));
  const opened: string[] = [];
  const settled = new Map<string, SettledCandidate>();
  let prose = '';
  let doneMarker: string | null = null;
  let promoted = 0;
  const onEvent = (event: DetectorEvent): void => {
    switch (event.type) {
      case 'candidate_opened':
        opened.push(event.toolCallId);
        break;
      case 'candidate_promoted':
        // The turn numbers calls in the order they arrive; the detector's events say the same
        // number. Checked where the two meet: a call must never be answered under another's place.
        if (event.emitOrder !== promoted) {
          throw new InvalidArgumentError(
            'detector',
            `the detector promoted ${event.toolCallId} as call ${event.emitOrder}, but it is call ${promoted} of the turn`,
          );
        }
        promoted += 1;
        settled.set(event.toolCallId, event);
        calls.push(event.call);
        break;
      case 'candidate_retracted':
      case 'provider_native_call':
        settled.set(event.toolCallId, event);
        break;
      case 'text':
        prose += event.text;
        break;
      case 'done':
        doneMarker = event.marker;
        break;
      case 'candidate_partial':
        break;
      default: {
        const unreachable: never = event;
        throw new InvalidArgumentError(
          'detector',
          `unknown detector event ${JSON.stringify(unreachable)}`,
        );
      }
    }
    options.onDetectorEvent?.(event);
  };
  const detectorOptions = {
    toolNames: advertised,
    resolveName: (name: string) => {
      const canonical = registry.resolve(name)?.name;
      return canonical !== undefined && advertised.has(canonical) ? canonical : undefined;
    },
    onEvent,
  };
  const detector: ToolCallDetector =
    options.toolCalling === 'text'
      ? createTextDetector(detectorOptions)
      : createNativeDetector({
          ...detectorOptions,
          coalesceMs: options.coalesceMs,
          scheduler: options.scheduler,
        });

  let text = '';
  let finish: StreamedTurn['finish'] = null;
  let usage: StreamedTurn['usage'] = null;
  let providerContent: ProviderContent | null = null;
  let failure: { error: unknown } | null = null;
  try {
    for await (const delta of options.deltas) {
      if (delta.type === 'text') text += delta.text;
      else if (delta.type === 'finish') {
        finish =
          delta.paused === true
            ? { reason: delta.reason, safe: delta.safe, paused: true }
            : { reason: delta.reason, safe: delta.safe };
      } else if (delta.type === 'usage') {
        usage = { inputTokens: delta.inputTokens, outputTokens: delta.outputTokens };
      } else if (delta.type === 'provider_content') {
        providerContent = delta.content;
        continue;
      }
      detector.push(delta);
    }
    if (options.signal?.aborted) failure = { error: turnCancellationOf(options.signal.reason) };
  } catch (error) {
    failure = { error };
  }
  const streamEndedAt = performance.now();
  // Stop before settling open candidates, so a call completed by the end-of-text rules of a
  // failed stream is answered `cancelled` instead of running. A stream stopped by a graceful
  // interrupt leaves its running calls their grace: the turn already stopped starting calls.
  if (failure !== null && options.interrupt?.aborted !== true) {
    run.cancel(turnFailed(failure.error));
  }
  detector.end();
  calls.end();
  // The response has ended: the turn's usage and its number of calls are known, so every call
  // still held carries its share of the turn's tokens into the middleware.
  if (usage !== null) run.shareModelTokens(modelTokenShares(usage, promoted));
  run.release();
  await run.done;
  return {
    outcome: failure === null ? 'completed' : 'failed',
    error: failure?.error,
    text,
    prose,
    finish,
    providerContent: failure === null ? providerContent : null,
    doneMarker,
    usage,
    candidates: opened.flatMap((id) => settled.get(id) ?? []),
    results,
    streamEndedAt,
    settledAt: performance.now(),
  };
}

/** What the calls of a turn whose model stream failed are cancelled with. */
function turnFailed(error: unknown): CancelledError {
  if (CancelledError.isInstance(error)) return error;
  return new CancelledError(
    `cancelled because the model turn failed: ${errorMessage(error)}`,
    error,
  );
}
