import { InvalidOptionError } from 'switchyard';
import { bm25Search } from './bm25-search.js';
import { checkSearchOptions } from './check-search-options.js';
import { hybridSearch } from './hybrid-search.js';
import { regexSearch } from './regex-search.js';
import { runCustomSearch } from './run-custom-search.js';
import { SearchIndex, type SearchIndexOptions } from './search-index.js';
import type {
  SearchableTool,
  ToolSearchHit,
  ToolSearchQueryOptions,
  ToolSearchVariant,
} from './search-types.js';

/** Options of `createToolSearch`. */
export interface ToolSearchOptions extends SearchIndexOptions {
  /** The tools to search (a registry's `list()`, MCP-discovered tools, plain records). */
  readonly tools: Iterable<SearchableTool>;
  /** `bm25` (default), `regex`, `hybrid`, a function or `{ name?, handler }`. */
  readonly variant?: ToolSearchVariant;
  /**
   * Built-in strategies searching every namespace discount each hit by this factor for every
   * better hit of the same namespace, so one namespace's near-duplicates do not fill every slot.
   * In (0, 1]; 1 ranks by score alone. Default `DEFAULT_NAMESPACE_DECAY` (0.8). (`k1`, `b` and
   * `weights` are BM25F's; see `SearchIndexOptions`.)
   */
  readonly namespaceDecay?: number;
}

/** What one search found; `diagnostic` says why it found nothing when there is a reason. */
export interface ToolSearchOutcome {
  readonly hits: ToolSearchHit[];
  readonly diagnostic?: string;
}

/** A search over a fixed set of tools. */
export interface ToolSearch {
  /** The strategy's name: `bm25`, `regex`, `hybrid`, or the custom handler's name (default `custom`). */
  readonly variant: string;
  readonly tools: readonly SearchableTool[];
  /** Ranked hits, best first (at most `limit`, default 5). */
  search(query: string, options?: ToolSearchQueryOptions): Promise<ToolSearchHit[]>;
  /** The hits and, when there are none, why. */
  explain(query: string, options?: ToolSearchQueryOptions): Promise<ToolSearchOutcome>;
}

const DEFAULT_LIMIT = 5;
const MAX_LIMIT = 100;
const MAX_QUERY_LENGTH = 4096;
const NO_MATCH = 'no deferred tools matched the query; try broader terms';

/**
 * Builds a search over `tools` with one strategy. Built-in strategies index at once (≈ 50 ms for
 * 2,000 tools); a custom one receives the tools and the query as they are.
 * Throws `InvalidOptionError` for an unknown `variant`, tools that are not an iterable of named
 * tools, or a ranking option out of range (`k1`, `b`, `weights`, `namespaceDecay`).
 */
export function createToolSearch(options: ToolSearchOptions): ToolSearch {
  const tools = uniqueTools(options.tools);
  const variant = options.variant ?? 'bm25';
  if (typeof variant === 'string' && !['bm25', 'regex', 'hybrid'].includes(variant)) {
    throw new InvalidOptionError(
      'variant',
      `variant must be bm25, regex, hybrid, a function or { handler }; got "${variant}"`,
    );
  }
  if (typeof variant === 'object' && (variant === null || typeof variant.handler !== 'function')) {
    throw new InvalidOptionError(
      'variant',
      'a custom variant must be a function or { name?, handler: function }',
    );
  }
  const decay = checkSearchOptions(options);
  const index = typeof variant === 'string' ? new SearchIndex(tools, options) : undefined;
  const name =
    typeof variant === 'string'
      ? variant
      : typeof variant === 'function'
        ? 'custom'
        : (variant.name ?? 'custom');
  const explain = async (
    query: string,
    queryOptions: ToolSearchQueryOptions = {},
  ): Promise<ToolSearchOutcome> => {
    const limit = Math.min(Math.max(Math.trunc(queryOptions.limit ?? DEFAULT_LIMIT), 0), MAX_LIMIT);
    const text = typeof query === 'string' ? query.slice(0, MAX_QUERY_LENGTH) : '';
    if (text.trim() === '' || limit === 0) return { hits: [], diagnostic: 'empty query' };
    const namespace = queryOptions.namespace;
    let outcome: ToolSearchOutcome;
    if (index === undefined) {
      const pool =
        namespace === undefined ? tools : tools.filter((tool) => tool.namespace === namespace);
      const handler =
        typeof variant === 'function' ? variant : (variant as { handler: never }).handler;
      const hits = await runCustomSearch(handler, text, pool, {
        variant: name,
        limit,
        promoted: queryOptions.promoted ?? [],
      });
      outcome = { hits };
    } else if (variant === 'regex') {
      outcome = regexSearch(index, text, limit, namespace);
    } else {
      const search = variant === 'hybrid' ? hybridSearch : bm25Search;
      outcome = { hits: search(index, text, limit, namespace, decay) };
    }
    return outcome.hits.length === 0 && outcome.diagnostic === undefined
      ? { hits: [], diagnostic: NO_MATCH }
      : outcome;
  };
  return {
    variant: name,
    tools,
    explain,
    search: async (query, queryOptions) => (await explain(query, queryOptions)).hits,
  };
}

function uniqueTools(tools: Iterable<SearchableTool>): SearchableTool[] {
  if (
    tools === null ||
    typeof tools !== 'object' ||
    typeof (tools as Iterable<unknown>)[Symbol.iterator] !== 'function'
  ) {
    throw new InvalidOptionError(
      'tools',
      'tools must be an iterable of { name, description?, inputSchema? }',
    );
  }
  const seen = new Set<string>();
  const unique: SearchableTool[] = [];
  for (const tool of tools) {
    if (tool === null || typeof tool !== 'object' || typeof tool.name !== 'string') {
      throw new InvalidOptionError('tools', 'every tool needs a string name');
    }
    if (seen.has(tool.name)) continue;
    seen.add(tool.name);
    unique.push(tool);
  }
  return unique;
}
