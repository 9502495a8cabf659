import type { Dispatcher, TurnOptions } from '../dispatch/dispatcher.js';
import type { ModelTokens } from '../dispatch/model-token-share.js';
import type { ProposedCall } from '../dispatch/proposed-call.js';
import { dispatchExceptionResult, type ToolCallResult } from '../dispatch/result.js';
import type { CallPlan } from './call-plan.js';
import type { DispatchTurnOptions } from './turn-options.js';

/** Whoever takes each call's result. */
export interface SettlesCalls {
  settle(plan: CallPlan, result: ToolCallResult): void;
}

/** What a turn's calls are dispatched with. */
export interface TurnDispatchOptions {
  readonly turn: DispatchTurnOptions;
  readonly maxConcurrentTools: number;
  /** The turn's own signal, followed by every call; none when nothing can cancel the turn. */
  readonly signal: AbortSignal | undefined;
  /** Each call's share of the model turn's tokens, by emit order, when the turn's usage is known. */
  readonly modelTokens?: ((emitOrder: number) => ModelTokens) | undefined;
}

/**
 * How a turn hands its calls to the dispatcher: the facts every call of the turn shares, and each
 * call as the turn already read it, which any dispatcher reads the same way again (an unreadable
 * call stands in for itself).
 */
export class TurnDispatch {
  private readonly dispatcher: Dispatcher;
  /** What every call of the turn is dispatched with, besides its emit order. */
  private options: TurnOptions;
  /** Each call's share of the turn's tokens; undefined until the turn's usage is known. */
  private modelTokens: ((emitOrder: number) => ModelTokens) | undefined;

  constructor({ turn, maxConcurrentTools, signal, modelTokens }: TurnDispatchOptions) {
    this.dispatcher = turn.dispatcher;
    this.modelTokens = modelTokens;
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

  /** Calls dispatched from now on carry their share of the turn's tokens (`shareOf(emitOrder)`). */
  shareModelTokens(shareOf: (emitOrder: number) => ModelTokens): void {
    this.modelTokens = shareOf;
  }

  /**
   * The turn options of call `emitOrder`. Written out rather than spread: a spread copy of options
   * with undefined members costs ~10% of a trivial call.
   */
  private optionsOf(emitOrder: number): TurnOptions {
    const options = this.options;
    return {
      iteration: options.iteration,
      sessionId: options.sessionId,
      runId: options.runId,
      model: options.model,
      provider: options.provider,
      maxConcurrentTools: options.maxConcurrentTools,
      signal: options.signal,
      advertised: options.advertised,
      policy: options.policy,
      context: options.context,
      journal: options.journal,
      emitOrder,
      modelTokens: this.modelTokens?.(emitOrder),
    };
  }

  /**
   * Dispatches a planned call (`dispatchNow`) and hands its one result to `turn.settle`, whatever
   * the dispatcher did: before this returns when the call was answered at once.
   */
  dispatch(plan: CallPlan, turn: SettlesCalls): void {
    const { emitOrder } = plan;
    const call = plan.read as ProposedCall;
    let answer: ToolCallResult | Promise<ToolCallResult>;
    try {
      answer = this.dispatcher.dispatchNow(call, this.optionsOf(emitOrder));
    } catch (error) {
      turn.settle(plan, dispatchExceptionResult(call, emitOrder, error));
      return;
    }
    if (!(answer instanceof Promise)) {
      turn.settle(plan, answer);
      return;
    }
    // The dispatcher resolves for everything; keep one result per call even if it did not.
    answer.then(
      (result) => turn.settle(plan, result),
      (error: unknown) => turn.settle(plan, dispatchExceptionResult(call, emitOrder, error)),
    );
  }
}
