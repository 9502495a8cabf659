import type { Dispatcher, TurnOptions } from '../dispatch/dispatcher.js';
import { type ImmediateDispatch, immediateDispatchOf } from '../dispatch/immediate-dispatch.js';
import type { ProposedCall } from '../dispatch/proposed-call.js';
import type { ReadCall } from '../dispatch/read-proposed-call.js';
import { dispatchExceptionResult, type ToolCallResult } from '../dispatch/result.js';
import type { AnyTool } from '../tools/tool-registry.js';
import type { DispatchTurnOptions } from './turn-options.js';

/**
 * How a turn hands its calls to the dispatcher: one options object for the whole turn, the call
 * as the turn already read it, and no promise when the call settled at once (a dispatcher that
 * `createDispatcher` built, with nobody listening, no layers and an inline handler that returned
 * synchronously). Any other dispatcher gets `dispatch(call, options)`.
 */
export class TurnDispatch {
  private readonly dispatcher: Dispatcher;
  private readonly immediate: ImmediateDispatch | undefined;
  /** What every call of the turn is dispatched with, besides its emit order. */
  private options: TurnOptions;

  constructor(
    turn: DispatchTurnOptions,
    maxConcurrentTools: number,
    signal: AbortSignal | undefined,
  ) {
    this.dispatcher = turn.dispatcher;
    this.immediate = immediateDispatchOf(turn.dispatcher);
    const facts = turn.turn;
    this.options = {
      iteration: facts?.iteration,
      sessionId: facts?.sessionId,
      runId: facts?.runId,
      model: facts?.model,
      provider: facts?.provider,
      maxConcurrentTools,
      signal,
      advertised: turn.advertised,
      policy: turn.policy,
      context: turn.context,
      journal: turn.journal,
    };
  }

  /**
   * Calls dispatched from now on are already cancelled (with `reason`): they pass through the
   * layers, for audit, and never start. Calls already dispatched keep their signal.
   */
  stopStarting(reason: unknown): void {
    this.options = { ...this.options, signal: AbortSignal.abort(reason) };
  }

  /** The call's result, or a promise of it; never throws, never rejects. */
  dispatch(
    read: ReadCall,
    emitOrder: number,
    tool: AnyTool | null,
  ): ToolCallResult | Promise<ToolCallResult> {
    // An unreadable call stands in for itself: any dispatcher reads it as unreadable again.
    const call = read as ProposedCall;
    let pending: ToolCallResult | Promise<ToolCallResult>;
    try {
      pending =
        this.immediate === undefined
          ? this.dispatcher.dispatch(call, { ...this.options, emitOrder })
          : this.immediate(read, this.options, emitOrder, tool);
    } catch (error) {
      return dispatchExceptionResult(call, emitOrder, error);
    }
    if (!(pending instanceof Promise)) return pending;
    // The dispatcher resolves for everything; keep one result per call even if it did not.
    return pending.then(undefined, (error: unknown) =>
      dispatchExceptionResult(call, emitOrder, error),
    );
  }
}
