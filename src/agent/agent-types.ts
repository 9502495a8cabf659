import type { LoopThresholds } from '../actors/loop-detector.js';
import type { DispatcherOptions } from '../dispatch/dispatcher.js';
import type { ToolCallEvent } from '../dispatch/events.js';
import type { ToolCallResult } from '../dispatch/result.js';
import type { ToolCaller } from '../dispatch/tool-caller.js';
import type { InDoubtCall, PendingApproval } from '../journal/journal-views.js';
import type { RunJournal } from '../journal/run-journal.js';
import type { ModelClient, TranscriptMessage } from '../providers/model-client.js';
import type { CandidateRetractedEvent, DetectorEvent } from '../streams/detector-events.js';
import type { EagerPolicy } from '../streams/eager-start.js';
import type { StreamedTurn } from '../streams/streamed-turn.js';
import type { JsonValue } from '../tools/json.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { ToolSearchEvent, ToolSearchHook } from './tool-search-hook.js';
import type { ToolSource } from './tool-source.js';

/** Options of `agentLoop`. */
export interface AgentLoopOptions {
  /** The user's request: the first user message. */
  readonly task: string;
  readonly system?: string;
  readonly model: ModelClient;
  readonly tools: ToolRegistry;
  /** Your middleware stack (`composeToolCallers([...])`); the loop guard wraps it. */
  readonly toolCaller?: ToolCaller;
  /** Everything else the dispatcher takes: executors (worker pool), context, stores, secrets, … */
  readonly dispatcher?: Omit<DispatcherOptions, 'registry' | 'caller'>;
  /** Model turns at most. Default 10. */
  readonly maxIterations?: number;
  /** Tool calls in flight per turn. Default 8. */
  readonly maxConcurrentTools?: number;
  /** Start safe calls while the model still streams (see `dispatchStreamedTurn`). Default true. */
  readonly eager?: boolean | EagerPolicy;
  /**
   * Keep going when the model answers without calling tools, until it says it is done
   * (`<done>##DONE##</done>`, or `##DONE##` in its text) or your predicate says so. Default false:
   * the first answer without calls ends the run.
   */
  readonly loopUntilDone?: boolean | ((turn: AgentTurn) => boolean);
  /** Cancels the run: the model stream stops, running calls see it, queued calls never run. */
  readonly signal?: AbortSignal;
  /**
   * Stops the run gracefully (a first Ctrl-C): the model stream stops and no further call starts,
   * while calls already running finish, for up to `interruptGraceMs`, before they see their
   * signal abort. The run ends `cancelled`. `signal` still stops everything at once.
   */
  readonly interrupt?: AbortSignal;
  /** How long running calls may finish after `interrupt` aborts, ms. Default 30 000. */
  readonly interruptGraceMs?: number;
  /**
   * The run's journal (`openRunJournal` from `switchyard/journal`; its `runId` is the run's).
   * Model turns are recorded and, when the run is resumed with the same journal's run, replayed
   * instead of asked again, so the same calls come back in the same places; each call that may
   * have side effects is recorded before it starts and after it ends. A resumed run never runs a
   * completed call again, stops (`in_doubt`) at a call that may or may not have taken effect,
   * and stops (`interrupted`) at calls waiting for approval. Default none.
   */
  readonly journal?: RunJournal;
  /** Every event: turns, detector candidates and text, tool call lifecycle. */
  readonly onEvent?: (event: AgentEvent) => void;
  /** Stamped on calls and receipts. Default `session_<uuid>`. */
  readonly sessionId?: string;
  /** Default `run_<uuid>`. */
  readonly runId?: string;
  /** Repetition thresholds of the loop guard, or false to turn it off. Default warn 2, block 3, skip 4. */
  readonly loopDetection?: LoopThresholds | false;
  /** Messages before the task (a conversation to continue). */
  readonly history?: readonly TranscriptMessage[];
  /** Retries of a model turn that failed with a transient `ModelError` (429, overload, lost connection). Default 2. */
  readonly maxModelRetries?: number;
  /** Pause before the first retry, doubled each time. Default 500 ms. */
  readonly retryDelayMs?: number;
  /** Waits between retries. Default: a timer the signal cancels. */
  readonly sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  /**
   * Tool search over tools with `deferLoading`: they stay out of the tool list until a search
   * finds them. Pass `toolSearch({ variant, budgetTokens, … })` from `@switchyard/vault`. Default
   * off: deferred tools are never shown.
   */
  readonly toolSearch?: ToolSearchHook;
  /**
   * Tools from outside `tools`, such as MCP servers (`mcpToolSource([...])` from
   * `@switchyard/mcp`): opened before the first turn, asked between turns whether its tools
   * changed, closed when the run ends. Default none.
   */
  readonly toolSource?: ToolSource;
}

/** How the run ended. */
export type AgentStatus =
  /** The model answered without calling a tool. */
  | 'completed'
  /** `loopUntilDone`: the model (or your predicate) said the task is done. */
  | 'done'
  /** `maxIterations` model turns ran and the model still called tools. */
  | 'max_iterations'
  /** The signal aborted, or the run was interrupted (`interrupt`); resume it with its journal. */
  | 'cancelled'
  /**
   * Calls wait for a decision (durable approvals, see `pendingApprovals`): record decisions in
   * the journal and run the same task again with it.
   */
  | 'interrupted'
  /**
   * A call may or may not have taken effect (see `inDoubt`): the run stops there, or, when the
   * model finished, is never reported as completed, until an operator resolves it.
   */
  | 'in_doubt'
  /** A guardrail halted the run (a result with status `guardrail_halted`, see `withGuardrails`). */
  | 'halted'
  /** A model turn failed and retries (if any) did not help; `error` says why. */
  | 'failed';

/** A call the provider ran itself: recorded, never dispatched here. */
export interface ProviderNativeRecord {
  readonly executor: 'provider_native';
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: JsonValue | undefined;
}

/** One model turn of the run. */
export interface AgentTurn {
  readonly iteration: number;
  /** `failed` when the model stream threw or was cancelled (its calls were cancelled). */
  readonly outcome: 'completed' | 'failed';
  readonly error: unknown;
  /** The text outside tool calls. */
  readonly text: string;
  readonly finish: StreamedTurn['finish'];
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number } | null;
  /** One per promoted call, in planner order. */
  readonly results: readonly ToolCallResult[];
  /** Calls the detector took back (never executed); the model got `error` as their result. */
  readonly retracted: readonly CandidateRetractedEvent[];
  readonly providerNative: readonly ProviderNativeRecord[];
  /** The model wrote the done marker. */
  readonly done: boolean;
  /** `performance.now()` at the model's last byte, and when the turn's last result settled. */
  readonly streamEndedAt: number;
  readonly settledAt: number;
}

/** What `agentLoop` resolves to. */
export interface AgentRun {
  readonly status: AgentStatus;
  /** The model's last prose (its answer when `completed`). */
  readonly text: string;
  /** The whole conversation, ready to continue (`history`). */
  readonly transcript: readonly TranscriptMessage[];
  /** Every dispatched call's result, turn after turn, each turn in planner order. */
  readonly results: readonly ToolCallResult[];
  /** Every model turn, failed attempts included. */
  readonly turns: readonly AgentTurn[];
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
  /** Model turns that ran to the end. */
  readonly iterations: number;
  /** Why the run failed or was cancelled. */
  readonly error?: unknown;
  /** The run's id (the journal's, when it has one). */
  readonly runId: string;
  /** Calls waiting for a decision (`interrupted`); empty otherwise. */
  readonly pendingApprovals: readonly PendingApproval[];
  /** Calls that may or may not have taken effect and wait for an operator (`in_doubt`). */
  readonly inDoubt: readonly InDoubtCall[];
  /** Model turns and tool calls taken from the journal instead of the model and the tools. */
  readonly replayed: { readonly modelTurns: number; readonly toolCalls: number };
}

/** Events of the loop itself. */
export type AgentLoopEvent =
  | { readonly type: 'turn_started'; readonly iteration: number; readonly attempt: number }
  | { readonly type: 'turn_finished'; readonly turn: AgentTurn }
  | {
      readonly type: 'model_retry';
      readonly iteration: number;
      readonly attempt: number;
      readonly delayMs: number;
      readonly error: unknown;
    }
  | {
      /**
       * Between turns, the `toolSource`'s tools changed (MCP servers that announced
       * `tools/list_changed` were listed again): `tools` are the source's tools the next turn
       * offers. With `error`, listing failed and the old tools stay.
       */
      readonly type: 'tools_refreshed';
      readonly iteration: number;
      readonly tools: readonly string[];
      readonly error?: unknown;
    };

/** Everything `onEvent` receives. */
export type AgentEvent = AgentLoopEvent | DetectorEvent | ToolCallEvent | ToolSearchEvent;

/** The marker a model writes when `loopUntilDone` asks it to say the task is done. */
export const DONE_MARKER = '##DONE##';
