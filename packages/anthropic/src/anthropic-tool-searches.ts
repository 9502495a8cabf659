import type { NativeToolSearchRecord } from 'switchyard/providers';
import type { ProviderContent } from 'switchyard/streams';

type Block = { readonly type?: unknown; readonly [key: string]: unknown };

/**
 * Anthropic's server tool searches in a recorded message: each `server_tool_use` block of a
 * `tool_search_tool_*` tool (its `input.query`) with the `tool_search_tool_result` that answers it
 * (the `tool_reference` names; none for a `tool_search_tool_result_error`). A search whose result
 * block is missing (a paused turn) loaded nothing yet.
 */
export function anthropicToolSearches(content: ProviderContent): NativeToolSearchRecord[] {
  if (content.provider !== 'anthropic' || !Array.isArray(content.content)) return [];
  const blocks = content.content as readonly Block[];
  const loaded = new Map<string, string[]>();
  for (const block of blocks) {
    if (block?.type === 'tool_search_tool_result' && typeof block.tool_use_id === 'string') {
      loaded.set(block.tool_use_id, referencedTools(block.content));
    }
  }
  const searches: NativeToolSearchRecord[] = [];
  for (const block of blocks) {
    if (block?.type !== 'server_tool_use' || typeof block.id !== 'string') continue;
    if (typeof block.name !== 'string' || !block.name.startsWith('tool_search_tool_')) continue;
    searches.push({
      toolCallId: block.id,
      name: block.name,
      query: queryOf(block.input),
      loaded: loaded.get(block.id) ?? [],
    });
  }
  return searches;
}

function referencedTools(result: unknown): string[] {
  const references = (result as { tool_references?: unknown } | null)?.tool_references;
  if (!Array.isArray(references)) return [];
  return references.flatMap((reference: { tool_name?: unknown } | null) =>
    typeof reference?.tool_name === 'string' ? [reference.tool_name] : [],
  );
}

function queryOf(input: unknown): string {
  const query = (input as { query?: unknown } | null)?.query;
  return typeof query === 'string' ? query : JSON.stringify(input ?? {});
}
