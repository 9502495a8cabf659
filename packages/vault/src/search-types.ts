import type { JsonSchema } from 'switchyard';

/** What the vault needs of a tool: a defined `Tool`, an MCP-discovered one or a plain record all fit. */
export interface SearchableTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema?: JsonSchema;
  readonly namespace?: string;
  readonly deferLoading?: boolean;
}

/** One ranked match: higher `score` ranks first; scores compare only within one search. */
export interface ToolSearchHit {
  readonly name: string;
  readonly score: number;
}

/** Options of one `search` call. */
export interface ToolSearchQueryOptions {
  /** Hits at most. Default 5, capped at 100. */
  readonly limit?: number;
  /** Only tools of this namespace. Default: every tool. */
  readonly namespace?: string;
  /** Names already promoted (passed to custom strategies as `state.promoted`). Default none. */
  readonly promoted?: readonly string[];
}

/** What a custom strategy receives besides the query and the tools. */
export interface ToolSearchState {
  /** The built-in strategy's name or the custom handler's name. */
  readonly variant: string;
  /** Hits wanted. */
  readonly limit: number;
  /** Names promoted earlier in the session (client mode), oldest first; empty on its own. */
  readonly promoted: readonly string[];
}

/**
 * What a custom strategy may return: tool names (best first), hits with scores, or either wrapped as
 * `{ toolNames }` / `{ ranked }`. Unknown names are dropped.
 */
export type CustomSearchOutput =
  | readonly (string | ToolSearchHit)[]
  | { readonly toolNames: readonly string[] }
  | { readonly ranked: readonly ToolSearchHit[] };

/** A user-supplied search over the deferred tools (embeddings, rerankers, ontologies, …). */
export type CustomSearchFunction = (
  query: string,
  tools: readonly SearchableTool[],
  state: ToolSearchState,
) => CustomSearchOutput | Promise<CustomSearchOutput>;

/** A named custom strategy; the name shows in events and in the search tool's description. */
export interface NamedSearchHandler {
  readonly name?: string;
  readonly handler: CustomSearchFunction;
}

/** Built-in strategies. */
export type BuiltInVariant = 'bm25' | 'regex' | 'hybrid';

/** A built-in strategy by name, a function, or a named handler. */
export type ToolSearchVariant = BuiltInVariant | CustomSearchFunction | NamedSearchHandler;
