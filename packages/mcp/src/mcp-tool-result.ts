import type { CallToolResult, ContentBlock as McpContentBlock } from '@modelcontextprotocol/server';
import type { ToolCallResult } from 'switchyard';
import type { ContentBlock } from 'switchyard/dispatch';
import type { AnyTool } from 'switchyard/tools';
import { isPlainObject } from 'switchyard/tools';

function mcpContentOf(block: ContentBlock): McpContentBlock {
  if (block.type === 'text') return { type: 'text', text: block.text };
  if (block.type === 'image') return { type: 'image', data: block.data, mimeType: block.mimeType };
  if (block.text !== undefined) {
    return {
      type: 'resource',
      resource: {
        uri: block.uri,
        text: block.text,
        ...(block.mimeType === undefined ? {} : { mimeType: block.mimeType }),
      },
    };
  }
  return {
    type: 'resource_link',
    uri: block.uri,
    name: block.uri,
    ...(block.mimeType === undefined ? {} : { mimeType: block.mimeType }),
  };
}

/**
 * A dispatched call's result as a `tools/call` answer. A failed call (refused, invalid, timed out,
 * a tool error) is `isError: true` with the observation the model would read; a successful one
 * carries its content blocks (or its bounded rendered text) and, when the tool declares an
 * outputSchema, its value as `structuredContent`.
 */
export function mcpCallResultOf(result: ToolCallResult, tool: AnyTool | undefined): CallToolResult {
  if (!result.ok) {
    return { content: [{ type: 'text', text: result.observation }], isError: true };
  }
  const content =
    result.content === undefined
      ? [{ type: 'text' as const, text: result.renderedResult }]
      : result.content.map(mcpContentOf);
  if (tool?.outputSchema !== undefined && isPlainObject(result.result)) {
    return { content, structuredContent: result.result };
  }
  return { content };
}
