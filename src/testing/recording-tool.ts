import { defineTool } from '../tools/define-tool.js';
import type { JsonObject } from '../tools/json.js';
import type { Tool, ToolRuntime, ToolSpec, ToolTurnFacts } from '../tools/tool-spec.js';
import type { SchemaFor } from '../tools/tool-types.js';
import { type Deferred, deferred } from './deferred.js';

/** One call a recording tool received, in arrival order. */
export interface RecordedCall<Args = JsonObject> {
  readonly args: Args;
  readonly callId: string;
  readonly toolName: string;
  readonly turn: ToolTurnFacts;
  /** The call's signal: check `aborted` and `reason` after a timeout or a cancellation. */
  readonly signal: AbortSignal;
  /** The hidden values the handler received (undefined unless the tool lists them in `injected`). */
  readonly context: unknown;
  readonly stores: Readonly<Record<string, unknown>> | undefined;
  readonly secrets: Readonly<Record<string, string>> | undefined;
  /** The runtime itself, e.g. to `emit` progress from a custom responder. */
  readonly runtime: ToolRuntime;
}

/** What a recording tool does with a call. */
export type Behaviour<Args = JsonObject> =
  | { readonly type: 'return'; readonly value: unknown }
  | { readonly type: 'throw'; readonly error: unknown }
  /** Never settles, whatever the signal does: the tool that ignores cancellation. */
  | { readonly type: 'hang' }
  /** Settles only when the call's signal aborts, rejecting with its reason. */
  | { readonly type: 'hang_until_aborted' }
  /** Answers each call with what `respond` returns (or throws). */
  | {
      readonly type: 'respond';
      /** Called with each call; its return value (or throw) is the call's. */
      readonly respond: (call: RecordedCall<Args>) => unknown;
    };

/** A defined tool plus the calls it received and controls over what it does next. */
export interface RecordingTool<Args = JsonObject> {
  readonly tool: Tool<Args>;
  readonly calls: readonly RecordedCall<Args>[];
  readonly callCount: number;
  readonly lastCall: RecordedCall<Args> | undefined;
  /** Resolves with the next call that arrives (or the one already recorded at that index). */
  nextCall(): Promise<RecordedCall<Args>>;
  /** Sets the behaviour of every later call (the default echoes the arguments). */
  returns(value: unknown): RecordingTool<Args>;
  /** From now on every call throws `error` (a tool error). */
  throws(error: unknown): RecordingTool<Args>;
  /**
   * From now on every call hangs: until aborted (the default), or for ever with `untilAborted:
   * false`.
   */
  hangs(options?: { untilAborted?: boolean }): RecordingTool<Args>;
  /** From now on every call is answered by `respond`. */
  respondsWith(respond: (call: RecordedCall<Args>) => unknown): RecordingTool<Args>;
  /** Queues a behaviour for one call; queued behaviours run first, in order. */
  once(behaviour: Behaviour<Args>): RecordingTool<Args>;
  /** Forgets the calls and queued behaviours; the default behaviour stays. */
  reset(): void;
}

/** Options of `recordingTool`: any tool spec field except the handler. */
export type RecordingToolOptions<Args = JsonObject> = Partial<
  Omit<ToolSpec<Args, unknown, unknown, SchemaFor<Args>>, 'handler' | 'executor'>
> & { readonly name: string };

const ANY_OBJECT = Object.freeze({ type: 'object' });

/**
 * A fake tool that records every call it receives and can be told to return, throw or hang. Its
 * defaults: an input schema accepting any object, read-only safety (so retry policies and empty
 * arguments are allowed), and a handler that returns its arguments.
 *
 * @example
 * const search = recordingTool({ name: 'search' }).returns(['hit']);
 * const dispatcher = createDispatcher({ registry: createToolRegistry([search.tool]) });
 * await dispatcher.dispatch({ id: 'c1', name: 'search', arguments: '{"q":"x"}' });
 * search.calls[0]?.args; // { q: 'x' }
 */
export function recordingTool<Args = JsonObject>(
  options: RecordingToolOptions<Args>,
): RecordingTool<Args> {
  const calls: RecordedCall<Args>[] = [];
  const queued: Behaviour<Args>[] = [];
  /** Waiters of `nextCall()`, by the index of the call they wait for. */
  const waiters = new Map<number, Deferred<RecordedCall<Args>>>();
  let fallback: Behaviour<Args> = { type: 'respond', respond: (call) => call.args };
  let awaited = 0;

  function record(args: Args, runtime: ToolRuntime): RecordedCall<Args> {
    const call: RecordedCall<Args> = {
      args,
      callId: runtime.callId,
      toolName: runtime.toolName,
      turn: runtime.turn,
      signal: runtime.signal,
      context: runtime.context,
      stores: runtime.stores,
      secrets: runtime.secrets,
      runtime,
    };
    calls.push(call);
    waiters.get(calls.length - 1)?.resolve(call);
    waiters.delete(calls.length - 1);
    return call;
  }

  function behave(behaviour: Behaviour<Args>, call: RecordedCall<Args>): unknown {
    switch (behaviour.type) {
      case 'return':
        return behaviour.value;
      case 'throw':
        throw behaviour.error;
      case 'hang':
        return new Promise<never>(() => {});
      case 'hang_until_aborted':
        return new Promise<never>((_, reject) => {
          if (call.signal.aborted) reject(call.signal.reason);
          call.signal.addEventListener('abort', () => reject(call.signal.reason), { once: true });
        });
      case 'respond':
        return behaviour.respond(call);
      default: {
        const unreachable: never = behaviour;
        return unreachable;
      }
    }
  }

  const tool = defineTool<Args, unknown>({
    description: `recording tool ${options.name}`,
    inputSchema: ANY_OBJECT,
    safety: { readOnly: true },
    ...options,
    handler: function recordingHandler(args, runtime) {
      const call = record(args, runtime as ToolRuntime);
      return behave(queued.shift() ?? fallback, call);
    },
  });

  const recorder: RecordingTool<Args> = {
    tool,
    calls,
    get callCount() {
      return calls.length;
    },
    get lastCall() {
      return calls[calls.length - 1];
    },
    nextCall() {
      const index = awaited;
      awaited += 1;
      const existing = calls[index];
      if (existing !== undefined) return Promise.resolve(existing);
      let waiter = waiters.get(index);
      if (waiter === undefined) {
        waiter = deferred<RecordedCall<Args>>();
        waiters.set(index, waiter);
      }
      return waiter.promise;
    },
    returns(value) {
      fallback = { type: 'return', value };
      return recorder;
    },
    throws(error) {
      fallback = { type: 'throw', error };
      return recorder;
    },
    hangs(hangOptions = {}) {
      fallback = { type: hangOptions.untilAborted === true ? 'hang_until_aborted' : 'hang' };
      return recorder;
    },
    respondsWith(respond) {
      fallback = { type: 'respond', respond };
      return recorder;
    },
    once(behaviour) {
      queued.push(behaviour);
      return recorder;
    },
    reset() {
      calls.length = 0;
      queued.length = 0;
      awaited = 0;
    },
  };
  return recorder;
}
