import type { ToolAnnotations } from '@modelcontextprotocol/client';
import type { JsonSchema } from 'switchyard';
import { defineTool } from 'switchyard';
import { errorMessage } from 'switchyard/extension';
import { type AnyTool, isPlainObject, type SchemaValidator } from 'switchyard/tools';
import { type McpToolHints, mcpToolHints, mcpToolSafety } from './mcp-safety.js';
import { mcpSchemaProblem } from './mcp-schema-check.js';
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

function text(listed: Record<string, unknown>, key: string): string | undefined {
  const value = Object.hasOwn(listed, key) ? listed[key] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/**
 * Defines Switchyard tools for the tools one server listed, as it sent them: `<server>__<tool>`
 * names (aliased for providers when longer than 64 characters or dotted), the server's input and
 * output schemas (validated fail-closed), safety from its annotations (see `mcpToolSafety`), and
 * the `mcp_server` executor. An entry that is not a tool object, or whose name or schema cannot
 * be used (see `mcpSchemaProblem`, then the validator's own verdict), is skipped with the reason:
 * one unusable tool never costs the server's others.
 */
export function mcpToolsOf(
  config: McpServerConfig,
  listed: readonly unknown[],
  validator: SchemaValidator,
): { tools: AnyTool[]; skipped: McpSkippedTool[] } {
  const tools: AnyTool[] = [];
  const skipped: McpSkippedTool[] = [];
  const trusted = config.trusted === true;
  const seen = new Set<string>();
  const skip = (tool: string, reason: string) =>
    skipped.push({ server: config.name, tool, reason });
  for (const entry of listed) {
    if (!isPlainObject(entry)) {
      skip(JSON.stringify(entry) ?? String(entry), 'not a tool object');
      continue;
    }
    const toolName = text(entry, 'name');
    if (toolName === undefined) {
      skip(String(entry.name), 'its name is not a string');
      continue;
    }
    if (seen.has(toolName)) {
      skip(toolName, 'listed twice');
      continue;
    }
    seen.add(toolName);
    const problem =
      mcpSchemaProblem(entry.inputSchema, 'inputSchema') ??
      (entry.outputSchema === undefined
        ? undefined
        : mcpSchemaProblem(entry.outputSchema, 'outputSchema'));
    if (problem !== undefined) {
      skip(toolName, problem);
      continue;
    }
    const annotations = isPlainObject(entry.annotations)
      ? (entry.annotations as ToolAnnotations)
      : undefined;
    const hints = mcpToolHints(annotations);
    const origin: McpToolOrigin = { server: config.name, tool: toolName, trusted, hints };
    try {
      tools.push(
        defineTool(
          {
            name: mcpToolName(config.name, toolName),
            foreignName: true,
            title: text(entry, 'title') ?? annotations?.title ?? toolName,
            description: text(entry, 'description') ?? '',
            inputSchema: entry.inputSchema as JsonSchema,
            ...(entry.outputSchema === undefined
              ? {}
              : { outputSchema: entry.outputSchema as JsonSchema }),
            safety: mcpToolSafety(hints, trusted),
            timeoutMs: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
            executor: { kind: 'mcp_server', server: config.name },
            annotations: { mcp: origin },
          },
          validator,
        ),
      );
    } catch (error) {
      // Whatever the definition throws on is the listing's fault: skip the tool, keep the server.
      skip(toolName, errorMessage(error));
    }
  }
  return { tools, skipped };
}
