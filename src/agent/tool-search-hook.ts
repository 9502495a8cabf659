import type { SessionActor } from '../actors/session-actor.js';
import type { ModelClient, NativeToolSearchRequest } from '../providers/model-client.js';
import type { ProviderContent } from '../streams/tool-call-delta.js';
import type { ModelToolDefinition, ToolRegistry } from '../tools/tool-registry.js';

/** The model asked for tools: the same shape whether the provider searched (`native`) or the loop did (`client`). */
export interface ToolSearchQueryEvent {
  readonly type: 'tool_search_query';
  /** The search call's id. */
  readonly toolCallId: string;
  /** The search tool's name as the model saw it. */
  readonly name: string;
  readonly query: string;
  /** `bm25`, `regex`, `hybrid` or the custom strategy's name. */
  readonly strategy: string;
  readonly metadata: { readonly mode: 'native' | 'client' };
}

/** What a search made available. */
export interface ToolSearchResultEvent {
  readonly type: 'tool_search_result';
  readonly toolCallId: string;
  /** Tools this search promoted into the next turn's tool list (still there after the budget), best first. */
  readonly promoted: readonly string[];
  /** Every tool promoted after this search, oldest first: the deferred tools the model can call next. */
  readonly available: readonly string[];
  readonly strategy: string;
  readonly metadata: { readonly mode: 'native' | 'client' };
}

/** Either tool-search event. */
export type ToolSearchEvent = ToolSearchQueryEvent | ToolSearchResultEvent;

/** What the loop hands a tool-search hook when a run starts. */
export interface ToolSearchContext {
  readonly tools: ToolRegistry;
  readonly model: ModelClient;
  /** The run's session actor: promotion state lives there. */
  readonly session: SessionActor;
  /** Reports a search event to the run's listeners. */
  readonly emit: (event: ToolSearchEvent) => void;
}

/** How a tool search shapes the run: what the dispatcher runs, what each turn shows, the prompt. */
export interface ToolSearchView {
  /** The tools the dispatcher runs (the user's plus any search tool). */
  readonly registry: ToolRegistry;
  /** This turn's tool list. */
  definitions(): Promise<ModelToolDefinition[]>;
  /** The system prompt to send, from the one given. */
  system(base: string | undefined): string | undefined;
  /** Set when the provider searches: sent as the request's `toolSearch`. */
  readonly native?: NativeToolSearchRequest;
  /**
   * Reads a completed turn's recorded response (native mode: the provider's searches in it
   * become `tool_search_*` events), before the turn's `turn_finished`.
   */
  recorded?(content: ProviderContent): void;
}

/**
 * The `toolSearch` option of `agentLoop`: called once per run, before the first request (it may
 * throw `InvalidOptionError` to fail the run early). Build one with `toolSearch()` from
 * `switchyard/vault`.
 */
export type ToolSearchHook = (context: ToolSearchContext) => ToolSearchView;
