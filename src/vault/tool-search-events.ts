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

/** What a search made available: the tools of this result still promoted after the budget. */
export interface ToolSearchResultEvent {
  readonly type: 'tool_search_result';
  readonly toolCallId: string;
  /** Tools this search promoted into the next turn's tool list, best first. */
  readonly promoted: readonly string[];
  /** Every tool promoted after this search, oldest first: the deferred tools the model can call next. */
  readonly available: readonly string[];
  readonly strategy: string;
  readonly metadata: { readonly mode: 'native' | 'client' };
}

/** Either tool-search event. */
export type ToolSearchEvent = ToolSearchQueryEvent | ToolSearchResultEvent;
