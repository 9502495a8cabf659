import type { Tool as McpTool } from '@modelcontextprotocol/server';
import type { ToolRegistry } from 'switchyard';
import { type AnyTool, describeWithExamples } from 'switchyard/tools';

/**
 * A registry tool as MCP clients see it in `tools/list`. MCP has no field for input examples:
 * the tool's `inputExamples` are written into the description.
 */
export function mcpToolOf(tool: AnyTool): McpTool {
  const { safety } = tool;
  return {
    name: tool.name,
    title: tool.title,
    description: describeWithExamples(tool.description, tool.inputExamples),
    inputSchema: tool.inputSchema as McpTool['inputSchema'],
    ...(tool.outputSchema === undefined
      ? {}
      : { outputSchema: tool.outputSchema as NonNullable<McpTool['outputSchema']> }),
    annotations: {
      title: tool.title,
      readOnlyHint: safety.readOnly,
      destructiveHint: safety.destructive,
      idempotentHint: safety.idempotent,
      openWorldHint: safety.openWorld,
    },
  };
}

/**
 * The tools a registry serves over MCP, sorted by name (code point order) so every listing is
 * the same whatever the definition order: the visible ones (deferred tools stay hidden).
 */
export function mcpToolList(registry: ToolRegistry): McpTool[] {
  return registry
    .list()
    .filter((tool) => !tool.deferLoading)
    .map(mcpToolOf)
    .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
}
