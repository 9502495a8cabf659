import { isPlainObject } from 'switchyard/tools';
import type {
  CustomSearchFunction,
  SearchableTool,
  ToolSearchHit,
  ToolSearchState,
} from './search-types.js';

/**
 * Runs a custom strategy and normalises what it returns: names or `{ name, score }` (best first),
 * or `{ toolNames }` / `{ ranked }`. Names not among `tools` and repeats are dropped; names without
 * a score get 1 / rank. A strategy that throws propagates: it is the user's code.
 */
export async function runCustomSearch(
  handler: CustomSearchFunction,
  query: string,
  tools: readonly SearchableTool[],
  state: ToolSearchState,
): Promise<ToolSearchHit[]> {
  const output: unknown = await handler(query, tools, state);
  const entries: unknown[] = Array.isArray(output)
    ? output
    : isPlainObject(output) && Array.isArray(output.ranked)
      ? output.ranked
      : isPlainObject(output) && Array.isArray(output.toolNames)
        ? output.toolNames
        : [];
  const known = new Set(tools.map((tool) => tool.name));
  const hits: ToolSearchHit[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (hits.length >= state.limit) break;
    const name = typeof entry === 'string' ? entry : isPlainObject(entry) ? entry.name : undefined;
    if (typeof name !== 'string' || !known.has(name) || seen.has(name)) continue;
    seen.add(name);
    const score =
      isPlainObject(entry) && typeof entry.score === 'number' ? entry.score : 1 / (hits.length + 1);
    hits.push({ name, score });
  }
  return hits;
}
