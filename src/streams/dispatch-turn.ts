import { type ModelTokens, modelTokenShares } from '../dispatch/model-token-share.js';
import type { ProposedCall } from '../dispatch/proposed-call.js';
import { UnreadableCall } from '../dispatch/read-proposed-call.js';
import type { ToolCallResult } from '../dispatch/result.js';
import { InvalidOptionError } from '../errors.js';
import { checkNonNegative, checkObject } from '../option-checks.js';
import { AsyncQueue } from './async-queue.js';
import type { CallSource, DispatchTurnOptions } from './turn-options.js';
import { TurnRun } from './turn-run.js';

/** Calls of one turn: an array, any iterable, or an async iterable (pulled lazily). */
export type TurnCalls = Iterable<ProposedCall> | AsyncIterable<ProposedCall>;

const ARRAY_ITERATOR = Array.prototype[Symbol.iterator];

/** Options of `dispatchTurn` and `streamTurn`: a turn's options, and its model usage when known. */
export interface TurnCallsOptions extends DispatchTurnOptions {
  /**
   * The model turn's token usage, as its provider reported it, when the calls are dispatched
   * after the response ended: every call's envelope carries its share
   * (`ToolCallEnvelope.modelTokens`, the rule the agent loop's results use), so receipts, spans
   * and `withBudget`'s `maxTokens` see it. The share depends on how many calls the turn made, so
   * `calls` must be an array. Default none.
   */
  readonly modelUsage?: ModelTokens;
}

/** An `undefined` entry is a call that cannot be read, not the end of the list. */
const MISSING_CALL = new UnreadableCall(
  undefined,
  'the call is undefined, not an object',
) as unknown as ProposedCall;

/** Each call's share of `modelUsage`, by emit order; undefined without one. */
function sharesOf(
  calls: TurnCalls,
  usage: ModelTokens | undefined,
): ((emitOrder: number) => ModelTokens) | undefined {
  if (usage === undefined) return undefined;
  const given = checkObject('dispatchTurn', 'modelUsage', usage);
  const tokens = (part: keyof ModelTokens) =>
    checkNonNegative('dispatchTurn', `modelUsage.${part}`, given[part], { integer: true });
  const checked = { inputTokens: tokens('inputTokens'), outputTokens: tokens('outputTokens') };
  if (!Array.isArray(calls)) {
    throw new InvalidOptionError(
      'modelUsage',
      'dispatchTurn: modelUsage needs the calls as an array: each share depends on how many calls the turn made',
    );
  }
  return modelTokenShares(checked, calls.length);
}

function sourceOf(calls: TurnCalls): CallSource {
  if (Array.isArray(calls) && calls[Symbol.iterator] === ARRAY_ITERATOR) {
    // An array is read by index: no iterator step object per call.
    const list: readonly (ProposedCall | undefined)[] = calls;
    let index = 0;
    return {
      next: () => {
        if (index >= list.length) return undefined;
        const call = list[index];
        index += 1;
        return call === undefined ? MISSING_CALL : call;
      },
    };
  }
  if (Symbol.asyncIterator in calls) {
    const iterator = calls[Symbol.asyncIterator]();
    return {
      next: () =>
        iterator
          .next()
          .then((step) =>
            step.done ? undefined : step.value === undefined ? MISSING_CALL : step.value,
          ),
    };
  }
  const iterator = (calls as Iterable<ProposedCall>)[Symbol.iterator]();
  return {
    next: () => {
      const step = iterator.next();
      return step.done ? undefined : step.value === undefined ? MISSING_CALL : step.value;
    },
  };
}

/**
 * Dispatches the calls of one planner turn with bounded, safety-aware concurrency and resolves to
 * their results in planner order: exactly one result per call, whatever happened. Given the
 * model turn's `modelUsage`, each call carries its share of the turn's tokens.
 * Rejects with `InvalidOptionError` for bad options (`modelUsage` with calls that are not an array).
 *
 * @example
 * const results = await dispatchTurn(calls, { dispatcher, maxConcurrentTools: 4, signal });
 */
export function dispatchTurn(
  calls: TurnCalls,
  options: TurnCallsOptions,
): Promise<ToolCallResult[]> {
  // One promise per turn: the run says when it ended, and a turn whose calls all settled at once
  // has ended before this returns.
  return new Promise((resolve, reject) => {
    const results: ToolCallResult[] = [];
    new TurnRun({
      turn: options,
      source: sourceOf(calls),
      deliver: (result) => results.push(result),
      modelTokens: sharesOf(calls, options.modelUsage),
      onEnd: (failure) => (failure === undefined ? resolve(results) : reject(failure.error)),
    });
  });
}

/**
 * Like `dispatchTurn`, but yields each result as soon as it and every earlier one are ready
 * (ordered streaming), so a consumer can hand result 0 to the model while call 5 still runs.
 */
export async function* streamTurn(
  calls: TurnCalls,
  options: TurnCallsOptions,
): AsyncGenerator<ToolCallResult> {
  const ready = new AsyncQueue<ToolCallResult>();
  const run = new TurnRun({
    turn: options,
    source: sourceOf(calls),
    modelTokens: sharesOf(calls, options.modelUsage),
    deliver: (result) => ready.push(result),
    backlog: () => ready.size,
  });
  run.done.then(
    () => ready.end(),
    (error: unknown) => ready.end({ error }),
  );
  for (let result = await ready.next(); result !== undefined; result = await ready.next()) {
    run.resume();
    yield result;
  }
}
