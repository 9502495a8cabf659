import type { CallToolResult } from '@modelcontextprotocol/client';
import { toolOutput } from 'switchyard';
import type { ContentBlock } from 'switchyard/dispatch';
import { contentText } from 'switchyard/dispatch';
import type { ExecutionOutcome } from 'switchyard/executors';
import type { AnyTool, SchemaValidator } from 'switchyard/tools';

function field(block: object, key: string): unknown {
  return Object.hasOwn(block, key) ? (block as Record<string, unknown>)[key] : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** One MCP content block as Switchyard content; unknown kinds become a placeholder text. */
function contentBlockOf(block: unknown): ContentBlock {
  if (typeof block !== 'object' || block === null)
    return { type: 'text', text: '[invalid content]' };
  const type = field(block, 'type');
  if (type === 'text') return { type: 'text', text: text(field(block, 'text')) ?? '' };
  if (type === 'image') {
    return {
      type: 'image',
      data: text(field(block, 'data')) ?? '',
      mimeType: text(field(block, 'mimeType')) ?? 'application/octet-stream',
    };
  }
  if (type === 'resource_link') {
    const mimeType = text(field(block, 'mimeType'));
    return {
      type: 'resource',
      uri: text(field(block, 'uri')) ?? '',
      ...(mimeType === undefined ? {} : { mimeType }),
    };
  }
  if (type === 'resource') {
    const resource = field(block, 'resource');
    if (typeof resource === 'object' && resource !== null) {
      const mimeType = text(field(resource, 'mimeType'));
      const body = text(field(resource, 'text'));
      return {
        type: 'resource',
        uri: text(field(resource, 'uri')) ?? '',
        ...(mimeType === undefined ? {} : { mimeType }),
        ...(body === undefined ? {} : { text: body }),
      };
    }
  }
  const mimeType = text(field(block, 'mimeType'));
  return {
    type: 'text',
    text: `[${typeof type === 'string' ? type : 'unknown'} content${mimeType === undefined ? '' : ` ${mimeType}`}]`,
  };
}

/** A failure of the server itself (not of the tool): `mcp_server_error`. */
export function mcpServerFailure(
  server: string,
  message: string,
  error?: unknown,
): ExecutionOutcome {
  return {
    ok: false,
    error: error ?? new Error(message),
    executorFailure: {
      message: `MCP server "${server}": ${message}`,
      errorCategory: 'mcp_server_error',
    },
  };
}

/**
 * The outcome of a `tools/call` answer. `isError: true` is a tool error the model reads (its
 * content is the message); `structuredContent` is the value, checked against the tool's
 * `outputSchema` when it has one (a mismatch is the server's fault: `mcp_server_error`);
 * otherwise the value is the text of the content blocks.
 */
export function outcomeOfMcpResult(
  tool: AnyTool,
  server: string,
  answer: CallToolResult,
  validator: SchemaValidator,
): ExecutionOutcome {
  const blocks = Array.isArray(answer?.content) ? answer.content : [];
  const content = blocks.map(contentBlockOf);
  const structured = answer.structuredContent;
  if (answer.isError === true) {
    return { ok: true, value: toolOutput({ value: structured ?? null, content, isError: true }) };
  }
  if (tool.outputSchema !== undefined) {
    if (structured === undefined) {
      return mcpServerFailure(
        server,
        `tool "${tool.name}" has an outputSchema but returned no structuredContent`,
      );
    }
    const check = validator.check(tool.name, tool.outputSchema, structured);
    if (!check.valid) {
      return mcpServerFailure(
        server,
        `tool "${tool.name}" returned structuredContent that breaks its outputSchema: ${check.repair}`,
      );
    }
  }
  return { ok: true, value: toolOutput({ value: structured ?? contentText(content), content }) };
}
