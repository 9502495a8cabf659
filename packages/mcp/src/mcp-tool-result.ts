import type { CallToolResult, ContentBlock as McpContentBlock } from '@modelcontextprotocol/server';
import type { ToolCallResult } from 'switchyard';
import type { AnyTool, SchemaValidator } from 'switchyard/tools';
import { isPlainObject } from 'switchyard/tools';

function text(block: Record<string, unknown>, key: string): string | undefined {
  const value = Object.hasOwn(block, key) ? block[key] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/**
 * One content block of a result as MCP content. A handler written in plain JavaScript can put
 * anything in `content`, so each kind is checked for the fields MCP requires: a text, an image or
 * audio with data and a media type, a resource with its uri (embedded with its text, else a link).
 * Anything else becomes a placeholder text, never a block a client would reject.
 */
function mcpContentOf(block: unknown): McpContentBlock {
  if (!isPlainObject(block)) return { type: 'text', text: '[invalid content]' };
  const type = text(block, 'type');
  const mimeType = text(block, 'mimeType');
  const data = text(block, 'data');
  const uri = text(block, 'uri');
  const body = text(block, 'text');
  if (type === 'text' && body !== undefined) return { type: 'text', text: body };
  if ((type === 'image' || type === 'audio') && data !== undefined && mimeType !== undefined) {
    return { type, data, mimeType };
  }
  if (type === 'resource' && uri !== undefined) {
    const typed = mimeType === undefined ? {} : { mimeType };
    return body === undefined
      ? { type: 'resource_link', uri, name: uri, ...typed }
      : { type: 'resource', resource: { uri, text: body, ...typed } };
  }
  return { type: 'text', text: `[${type ?? 'unknown'} content${mimeType ? ` ${mimeType}` : ''}]` };
}

function failure(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * A dispatched call's result as a `tools/call` answer. A failed call (refused, invalid, timed out,
 * a tool error) is `isError: true` with the observation the model would read; a successful one
 * carries its content blocks (or its bounded rendered text) and, when the tool declares an
 * outputSchema, its value as `structuredContent`, checked against that schema first: a value that
 * breaks it is answered as an error rather than sent as conforming (the spec's MUST).
 */
export function mcpCallResultOf(
  result: ToolCallResult,
  tool: AnyTool | undefined,
  validator: SchemaValidator,
): CallToolResult {
  if (!result.ok) return failure(result.observation);
  const content =
    result.content === undefined
      ? [{ type: 'text' as const, text: result.renderedResult }]
      : (result.content as readonly unknown[]).map(mcpContentOf);
  if (tool?.outputSchema === undefined) return { content };
  const check = validator.check(tool.name, tool.outputSchema, result.result);
  if (!check.valid) {
    return failure(
      `Tool "${tool.name}" returned a value that breaks its outputSchema: ${check.repair}`,
    );
  }
  return { content, structuredContent: result.result as CallToolResult['structuredContent'] };
}
