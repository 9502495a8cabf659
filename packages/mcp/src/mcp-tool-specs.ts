import type { Tool as McpTool } from '@modelcontextprotocol/client';
import type { JsonSchema } from 'switchyard';
import { defineTool, ToolDefinitionError } from 'switchyard';
import { errorMessage } from 'switchyard/extension';
import type { AnyTool, SchemaValidator } from 'switchyard/tools';
import { type McpToolHints, mcpToolHints, mcpToolSafety } from './mcp-safety.js';
import type { McpServerConfig } from './mcp-server-config.js';

/** A tool a server offered that Switchyard will not dispatch, and why. */
export interface McpSkippedTool {
  readonly server: string;
  readonly tool: string;
  readonly reason: string;
}

/** What `annotations.mcp` of a tool from an MCP server holds. */
export interface McpToolOrigin {
  readonly server: string;
  /** The tool's own name on the server (what `tools/call` sends). */
  readonly tool: string;
  readonly trusted: boolean;
  readonly hints: McpToolHints;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/** The registry name of a server's tool: `<server>__<tool>`. */
export function mcpToolName(server: string, tool: string): string {
  return `${server}__${tool}`;
}

/**
 * Defines Switchyard tools for the tools one server listed: `<server>__<tool>` names (aliased for
 * providers when longer than 64 characters or dotted), the server's input and output schemas
 * (validated fail-closed), safety from its annotations (see `mcpToolSafety`), and the
 * `mcp_server` executor. A tool whose name or schema cannot be used is skipped, with the reason.
 */
export function mcpToolsOf(
  config: McpServerConfig,
  listed: readonly McpTool[],
  validator: SchemaValidator,
): { tools: AnyTool[]; skipped: McpSkippedTool[] } {
  const tools: AnyTool[] = [];
  const skipped: McpSkippedTool[] = [];
  const trusted = config.trusted === true;
  const seen = new Set<string>();
  for (const listedTool of listed) {
    const toolName =
      typeof listedTool?.name === 'string' ? listedTool.name : String(listedTool?.name);
    if (seen.has(toolName)) {
      skipped.push({ server: config.name, tool: toolName, reason: 'listed twice' });
      continue;
    }
    seen.add(toolName);
    const hints = mcpToolHints(listedTool.annotations);
    const origin: McpToolOrigin = { server: config.name, tool: toolName, trusted, hints };
    try {
      tools.push(
        defineTool(
          {
            name: mcpToolName(config.name, toolName),
            foreignName: true,
            title: listedTool.title ?? listedTool.annotations?.title ?? toolName,
            description: typeof listedTool.description === 'string' ? listedTool.description : '',
            inputSchema: listedTool.inputSchema as JsonSchema,
            ...(listedTool.outputSchema === undefined
              ? {}
              : { outputSchema: listedTool.outputSchema as JsonSchema }),
            safety: mcpToolSafety(hints, trusted),
            timeoutMs: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
            executor: { kind: 'mcp_server', server: config.name },
            annotations: { mcp: origin },
          },
          validator,
        ),
      );
    } catch (error) {
      if (!ToolDefinitionError.isInstance(error)) throw error;
      skipped.push({ server: config.name, tool: toolName, reason: errorMessage(error) });
    }
  }
  return { tools, skipped };
}
