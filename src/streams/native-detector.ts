import { InvalidOptionError } from '../errors.js';
import type { JsonValue } from '../tools/json.js';
import { openedEvent, promotedEvent, retractedEvent } from './detect/candidate-events.js';
import { type DetectorCommonOptions, detectorContext } from './detect/detector-options.js';
import { NativeCall } from './detect/native-call.js';
import {
  type PartialUpdateScheduler,
  realTimeScheduler,
} from './detect/partial-update-scheduler.js';
import { cutOffMessage, incompleteMessage } from './detect/retraction-messages.js';
import type { RetractionReason, ToolCallDetector } from './detector-events.js';
import type { ToolCallDelta } from './tool-call-delta.js';

/** Options of `createNativeDetector`. */
export interface NativeDetectorOptions extends DetectorCommonOptions {
  /**
   * Partial-argument updates of one call are coalesced to at most one per this many
   * milliseconds; `0` sends one per fragment, `false` sends none. Default 50.
   */
  readonly coalesceMs?: number | false;
  /** Times the coalesced updates. Default: real time (RxJS `asyncScheduler`). */
  readonly scheduler?: PartialUpdateScheduler;
}

const FACTORY = 'createNativeDetector';

/**
 * Assembles the provider-native tool calls of one streamed response from `ToolCallDelta`s.
 *
 * Each call (by delta `key`) emits `candidate_opened`, coalesced `candidate_partial` updates,
 * then exactly one of `candidate_promoted` or `candidate_retracted`. A call is whole when its
 * block closes (`call_end`) or the response finishes with `safe: true`, and every whole call is
 * promoted: one naming a tool that was not advertised (under the name it used) or whose
 * arguments are not a JSON object (with the text as it came, a string) too, for the dispatcher
 * to refuse with a result (and a receipt) like any other call it cannot run. A call cut off by an
 * unsafe finish or by the end of the stream was never whole: it is retracted with a model-facing
 * message and never promoted. Promotions go out in the order the calls opened (`emitOrder` 0, 1,
 * …): a call that completes while an earlier one is still streaming waits for it. Retractions are
 * not held back. Provider-native calls end in `provider_native_call` and are never promoted.
 *
 * Deltas for keys that never opened, repeated `call_start`s and call deltas after `finish`
 * are ignored. `text` deltas pass through as `text` events.
 *
 * @throws InvalidOptionError naming the option when an option is invalid.
 * @example
 * const events: DetectorEvent[] = [];
 * const detector = createNativeDetector({ toolNames: ['read'], onEvent: (e) => events.push(e) });
 * detector.push({ type: 'call_start', key: '0', id: 'call_1', name: 'read' });
 * detector.push({ type: 'call_arguments', key: '0', fragment: '{"path":"a.md"}' });
 * detector.push({ type: 'finish', reason: 'tool_calls', safe: true });
 * // events: candidate_opened, candidate_promoted {call: {id: 'call_1', name: 'read', arguments: {path: 'a.md'}}, emitOrder: 0}
 */
export function createNativeDetector(options: NativeDetectorOptions): ToolCallDetector {
  const context = detectorContext(options, FACTORY);
  const { emit } = context;
  const coalesceMs = options.coalesceMs ?? 50;
  if (coalesceMs !== false && !(Number.isFinite(coalesceMs) && coalesceMs >= 0)) {
    throw new InvalidOptionError(
      'coalesceMs',
      `${FACTORY}: coalesceMs must be a finite number ≥ 0, or false`,
    );
  }
  const scheduler = options.scheduler ?? realTimeScheduler;
  if (typeof scheduler?.schedule !== 'function') {
    throw new InvalidOptionError(
      'scheduler',
      `${FACTORY}: scheduler must have schedule(work, delay)`,
    );
  }

  /** Every call of the response by its delta key; settled calls stay, so keys are never reused. */
  const byKey = new Map<string, NativeCall>();
  /** Every call in the order it opened. */
  const opened: NativeCall[] = [];
  /** Calls to dispatch here, in the order they opened; promotions are released from `head`. */
  const dispatchable: NativeCall[] = [];
  let head = 0;
  let promotedCount = 0;
  /** Calls with fragments not yet shown in a partial update. */
  let dirty: NativeCall[] = [];
  let timer: { unsubscribe(): void } | undefined;
  /** A finish arrived (or the stream ended): no call opens or completes any more. */
  let finished = false;
  let ended = false;

  function open(delta: Extract<ToolCallDelta, { type: 'call_start' }>): void {
    if (finished || byKey.has(delta.key)) return;
    const providerNative = delta.providerNative === true;
    const canonical = providerNative ? delta.name : context.resolve(delta.name);
    const id =
      typeof delta.id === 'string' && delta.id !== '' ? delta.id : context.generateCallId();
    const call = new NativeCall(id, canonical ?? delta.name, providerNative);
    byKey.set(delta.key, call);
    opened.push(call);
    emit(openedEvent(call, providerNative));
    if (!providerNative) dispatchable.push(call);
  }

  function append(key: string, fragment: string): void {
    const call = byKey.get(key);
    if (call === undefined || call.settled) return;
    call.append(fragment);
    if (coalesceMs === false || fragment === '') return;
    if (!call.dirty) {
      call.dirty = true;
      dirty.push(call);
    }
    if (coalesceMs === 0) flushPartials();
    else timer ??= scheduler.schedule(flushPartials, coalesceMs);
  }

  function flushPartials(): void {
    timer = undefined;
    const calls = dirty;
    dirty = [];
    for (const call of calls) {
      if (call.settled || !call.dirty) continue;
      call.dirty = false;
      const { text, input } = call.partial();
      emit({
        type: 'candidate_partial',
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        source: 'native',
        status: 'pending',
        parsing: true,
        rawInputPartial: text,
        partialInput: input,
      });
    }
  }

  /** The call's arguments are complete: record it, or decide promotion or retraction. */
  function finalise(call: NativeCall): void {
    const text = call.text();
    if (call.providerNative) {
      call.settled = true;
      emit({
        type: 'provider_native_call',
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        source: 'native',
        rawInput: text,
        input: parseOrUndefined(text),
      });
      return;
    }
    call.settled = true;
    call.promotion = { args: call.argumentsOf(text), rawInput: text };
  }

  function retract(call: NativeCall, reason: RetractionReason, message: string): void {
    call.settled = true;
    emit(retractedEvent(call, { reason, error: message, rawInput: call.text() }));
  }

  /** Promotes settled calls in opening order, up to the first one still streaming. */
  function release(): void {
    while (head < dispatchable.length) {
      const call = dispatchable[head]!;
      if (!call.settled) return;
      head += 1;
      if (call.promotion === undefined) continue;
      const { args, rawInput } = call.promotion;
      emit(promotedEvent(call, { args, emitOrder: promotedCount, rawInput }));
      promotedCount += 1;
    }
  }

  /** Settles every open call: finalised when the end is safe, retracted otherwise. */
  function settleOpen(settle: (call: NativeCall) => void): void {
    finished = true;
    timer?.unsubscribe();
    timer = undefined;
    for (const call of opened) if (!call.settled) settle(call);
    release();
  }

  return {
    push(delta: ToolCallDelta): void {
      switch (delta.type) {
        case 'call_start':
          open(delta);
          return;
        case 'call_arguments':
          append(delta.key, delta.fragment);
          return;
        case 'call_end': {
          const call = byKey.get(delta.key);
          if (call === undefined || call.settled) return;
          call.complete(delta.arguments);
          finalise(call);
          release();
          return;
        }
        case 'text':
          if (delta.text !== '') emit({ type: 'text', text: delta.text, channel: 'prose' });
          return;
        case 'finish':
          if (finished) return;
          settleOpen((call) =>
            delta.safe
              ? finalise(call)
              : retract(call, 'cut_off', cutOffMessage(call.toolName, delta.reason)),
          );
          return;
        case 'usage':
        case 'provider_content':
          return;
        default:
          delta satisfies never;
      }
    },
    end(): void {
      if (ended) return;
      ended = true;
      settleOpen((call) => retract(call, 'incomplete', incompleteMessage(call.toolName)));
    },
  };
}

function parseOrUndefined(text: string): JsonValue | undefined {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}
