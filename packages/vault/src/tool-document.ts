import { isPlainObject } from 'switchyard/tools';
import type { SearchableTool } from './search-types.js';

/** Schema nodes visited per tool at most: a hostile schema cannot make indexing slow. */
const MAX_SCHEMA_NODES = 256;
const MAX_FIELD_LENGTH = 8192;

/** The searchable text of one tool, by field. */
export interface ToolDocument {
  readonly name: string;
  /** The tool's namespace (MCP server, tool family); `''` when it has none. */
  readonly namespace: string;
  /** The name's own words (`open_file` → `open file`). */
  readonly nameText: string;
  readonly description: string;
  /** Parameter names, their descriptions and enum values, nested properties included. */
  readonly parameterText: string;
  /** Parameter names only, as written (`file_path max_results`). */
  readonly parameterNames: string;
}

/** Splits a tool into the fields the strategies search. Walks the schema breadth-first, bounded. */
export function toolDocument(tool: SearchableTool): ToolDocument {
  const description = typeof tool.description === 'string' ? tool.description : '';
  const parameters = parameterText(tool.inputSchema);
  const parameterNames = parameters.names.join(' ').slice(0, MAX_FIELD_LENGTH);
  return {
    name: tool.name,
    namespace: typeof tool.namespace === 'string' ? tool.namespace : '',
    nameText: tool.name.replace(/[_\-.:/]+/g, ' '),
    description: description.slice(0, MAX_FIELD_LENGTH),
    parameterText: parameters.text.slice(0, MAX_FIELD_LENGTH),
    parameterNames,
  };
}

function parameterText(schema: unknown): { text: string; names: string[] } {
  const parts: string[] = [];
  const names: string[] = [];
  const queue: unknown[] = [schema];
  let visited = 0;
  for (let i = 0; i < queue.length && visited < MAX_SCHEMA_NODES; i += 1) {
    const node = queue[i];
    visited += 1;
    if (!isPlainObject(node)) continue;
    const properties = node.properties;
    if (isPlainObject(properties)) {
      for (const key of Object.keys(properties)) {
        names.push(key);
        parts.push(key.replace(/[_\-.]+/g, ' '));
        queue.push(properties[key]);
      }
    }
    if (typeof node.description === 'string' && i > 0) parts.push(node.description);
    if (Array.isArray(node.enum)) {
      for (const value of node.enum.slice(0, 32)) if (typeof value === 'string') parts.push(value);
    }
    if (isPlainObject(node.items)) queue.push(node.items);
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      const branches = node[key];
      if (Array.isArray(branches)) queue.push(...branches.slice(0, 16));
    }
  }
  return { text: parts.join(' '), names };
}
