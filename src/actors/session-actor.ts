import { toWireCategory } from '../dispatch/error-taxonomy.js';
import type { ToolCallResult } from '../dispatch/result.js';
import { type ActorRef, createActor } from './actor.js';
import {
  type LoopCheck,
  LoopDetector,
  type LoopThresholds,
  type LoopVerdict,
} from './loop-detector.js';

/** Per-session counters. */
export interface SessionCounters {
  readonly calls: number;
  readonly ok: number;
  /** Failed calls by wire error category. */
  readonly failedByCategory: Readonly<Record<string, number>>;
}

/**
 * What a session actor is told: a call about to run, a result, tools to promote, or a request for
 * its snapshot.
 */
export type SessionMessage =
  | { readonly type: 'before'; readonly toolName: string; readonly args: unknown }
  | { readonly type: 'after'; readonly result: ToolCallResult }
  | {
      readonly type: 'promote';
      readonly toolNames: readonly string[];
      readonly budget?: PromotionBudget;
    }
  | { readonly type: 'snapshot' };

/** A session's state at one moment: its counters and the deferred tools it promoted. */
export interface SessionSnapshot {
  readonly sessionId: string;
  readonly counters: SessionCounters;
  /** Deferred tools promoted into view, oldest first. */
  readonly promotedTools: readonly string[];
}

/** A soft cap on what promoted tools cost (e.g. schema tokens): the oldest go first to make room. */
export interface PromotionBudget {
  readonly limit: number;
  /** Cost of each tool being promoted; a tool costlier than `limit` is not promoted. */
  readonly costs: Readonly<Record<string, number>>;
}

/** Options of `createSessionActor`. */
export interface SessionActorOptions {
  readonly sessionId: string;
  readonly loop?: LoopThresholds;
  /** Most promoted tools kept; the oldest is dropped first. Default 64. */
  readonly maxPromoted?: number;
}

/** The typed handle of a session actor. */
export interface SessionActor {
  readonly ref: ActorRef<SessionMessage, unknown>;
  /** Loop check before dispatching a call. */
  beforeDispatch(toolName: string, args: unknown): Promise<LoopCheck>;
  /** Counts a result and runs the loop detector on it. */
  afterDispatch(result: ToolCallResult): Promise<LoopVerdict>;
  /** Promotes deferred tools (FIFO, bounded, within `budget` if given); resolves to the promoted list. */
  promote(toolNames: readonly string[], budget?: PromotionBudget): Promise<readonly string[]>;
  /** The session's counters and promoted tools, as of the messages handled so far. */
  snapshot(): Promise<SessionSnapshot>;
  /** Stops the actor once the messages before this one are handled. */
  stop(): Promise<void>;
}

interface SessionState {
  loop: LoopDetector;
  calls: number;
  ok: number;
  failed: Map<string, number>;
  promoted: string[];
  /** Cost of each promoted tool, when promoted under a budget. */
  costs: Map<string, number>;
}

/**
 * Starts the actor that owns one session's state: call counters, the loop detector and the tools
 * promoted by tool search. Many calls of a turn finish at once; their updates are applied one at a
 * time, in arrival order, by the actor.
 */
export function createSessionActor(options: SessionActorOptions): SessionActor {
  const maxPromoted = options.maxPromoted ?? 64;
  const snapshotOf = (state: SessionState): SessionSnapshot => ({
    sessionId: options.sessionId,
    counters: {
      calls: state.calls,
      ok: state.ok,
      failedByCategory: Object.fromEntries(state.failed),
    },
    promotedTools: [...state.promoted],
  });
  const promote = (state: SessionState, name: string, budget: PromotionBudget | undefined) => {
    if (state.promoted.includes(name)) return;
    const cost = budget === undefined ? 0 : (budget.costs[name] ?? 0);
    if (budget !== undefined) {
      if (cost > budget.limit) return;
      let spent = 0;
      for (const held of state.promoted) spent += state.costs.get(held) ?? 0;
      while (state.promoted.length > 0 && spent + cost > budget.limit) {
        const evicted = state.promoted.shift() as string;
        spent -= state.costs.get(evicted) ?? 0;
        state.costs.delete(evicted);
      }
    }
    state.promoted.push(name);
    state.costs.set(name, cost);
    if (state.promoted.length > maxPromoted) state.costs.delete(state.promoted.shift() as string);
  };
  const ref = createActor<SessionState, SessionMessage, unknown>({
    name: `session:${options.sessionId}`,
    init: () => ({
      loop: new LoopDetector(options.loop),
      calls: 0,
      ok: 0,
      failed: new Map(),
      promoted: [],
      costs: new Map(),
    }),
    receive(state, message) {
      switch (message.type) {
        case 'before':
          return state.loop.beforeDispatch(message.toolName, message.args);
        case 'after': {
          const { result } = message;
          state.calls += 1;
          if (result.ok) state.ok += 1;
          else {
            const category = toWireCategory(result.errorCategory) ?? 'unknown';
            state.failed.set(category, (state.failed.get(category) ?? 0) + 1);
          }
          return state.loop.afterDispatch(result.toolName, result.arguments, result.result);
        }
        case 'promote':
          for (const name of message.toolNames) promote(state, name, message.budget);
          return [...state.promoted];
        case 'snapshot':
          return snapshotOf(state);
        default: {
          const unreachable: never = message;
          return unreachable;
        }
      }
    },
  });
  return {
    ref,
    beforeDispatch: (toolName, args) =>
      ref.ask({ type: 'before', toolName, args }) as Promise<LoopCheck>,
    afterDispatch: (result) => ref.ask({ type: 'after', result }) as Promise<LoopVerdict>,
    promote: (toolNames, budget) =>
      ref.ask({ type: 'promote', toolNames, budget }) as Promise<readonly string[]>,
    snapshot: () => ref.ask({ type: 'snapshot' }) as Promise<SessionSnapshot>,
    stop: () => ref.stop(),
  };
}
