import type { NativeToolSearchRecord } from 'switchyard/providers';
import type { ProviderContent } from 'switchyard/streams';
import { RESPONSES_RECORD } from './responses-request.js';

type Item = { readonly type?: unknown; readonly [key: string]: unknown };

/**
 * Responses' hosted tool searches in a recorded output: each `tool_search_call` (its
 * `arguments`) with the `tool_search_output` of the same `call_id` (the functions it loaded,
 * those inside `namespace` tools included). Client-executed searches are the loop's own and are
 * left out.
 */
export function responsesToolSearches(content: ProviderContent): NativeToolSearchRecord[] {
  if (content.provider !== RESPONSES_RECORD || !Array.isArray(content.content)) return [];
  const items = (content.content as readonly Item[]).filter(
    (item) => item !== null && typeof item === 'object' && item.execution !== 'client',
  );
  const loaded = new Map<string, string[]>();
  for (const item of items) {
    if (item.type === 'tool_search_output' && typeof item.call_id === 'string') {
      loaded.set(item.call_id, functionNames(item.tools));
    }
  }
  const searches: NativeToolSearchRecord[] = [];
  for (const item of items) {
    if (item.type !== 'tool_search_call') continue;
    const id = typeof item.call_id === 'string' ? item.call_id : item.id;
    if (typeof id !== 'string') continue;
    searches.push({
      toolCallId: id,
      name: 'tool_search',
      query: queryOf(item.arguments),
      loaded: loaded.get(id) ?? [],
    });
  }
  return searches;
}

function functionNames(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool: Item | null): string[] => {
    if (tool?.type === 'namespace') return functionNames(tool.tools);
    return tool?.type === 'function' && typeof tool.name === 'string' ? [tool.name] : [];
  });
}

/** `{ query }` gives its text; a JSON string is read first; anything else stays JSON. */
function queryOf(args: unknown): string {
  let value = args;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return value as string;
    }
  }
  const query = (value as { query?: unknown } | null)?.query;
  return typeof query === 'string' ? query : JSON.stringify(value ?? {});
}
