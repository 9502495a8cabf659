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

export type SessionMessage =
  | { readonly type: 'before'; readonly toolName: string; readonly args: unknown }
  | { readonly type: 'after'; readonly result: ToolCallResult }
  | { readonly type: 'promote'; readonly toolNames: readonly string[] }
  | { readonly type: 'snapshot' };

export interface SessionSnapshot {
  readonly sessionId: string;
  readonly counters: SessionCounters;
  /** Deferred tools promoted into view, oldest first. */
  readonly promotedTools: readonly string[];
}

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
  /** Promotes deferred tools (FIFO, bounded); resolves to the promoted list. */
  promote(toolNames: readonly string[]): Promise<readonly string[]>;
  snapshot(): Promise<SessionSnapshot>;
  stop(): Promise<void>;
}

interface SessionState {
  loop: LoopDetector;
  calls: number;
  ok: number;
  failed: Map<string, number>;
  promoted: string[];
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
  const ref = createActor<SessionState, SessionMessage, unknown>({
    name: `session:${options.sessionId}`,
    init: () => ({
      loop: new LoopDetector(options.loop),
      calls: 0,
      ok: 0,
      failed: new Map(),
      promoted: [],
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
          for (const name of message.toolNames) {
            if (state.promoted.includes(name)) continue;
            state.promoted.push(name);
            if (state.promoted.length > maxPromoted) state.promoted.shift();
          }
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
    promote: (toolNames) => ref.ask({ type: 'promote', toolNames }) as Promise<readonly string[]>,
    snapshot: () => ref.ask({ type: 'snapshot' }) as Promise<SessionSnapshot>,
    stop: () => ref.stop(),
  };
}
