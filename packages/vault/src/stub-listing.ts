import type { SearchableTool } from './search-types.js';

/** Tools listed at most; the listing says how many more exist. */
const MAX_LISTED = 200;
const MAX_LINE = 100;

/** A short listing of deferred tools for the system prompt: name and first sentence, one per line. */
export function stubListing(tools: readonly SearchableTool[], searchToolName: string): string {
  const lines = tools.slice(0, MAX_LISTED).map((tool) => {
    const first = (tool.description ?? '').split(/(?<=\.)\s/)[0] ?? '';
    const line = `- ${tool.name}: ${first}`;
    return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line;
  });
  const more = tools.length > MAX_LISTED ? [`… and ${tools.length - MAX_LISTED} more.`] : [];
  return [
    `These tools are not loaded yet; call ${searchToolName} to load one before using it:`,
    ...lines,
    ...more,
  ].join('\n');
}
