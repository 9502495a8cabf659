import type { ToolAnnotations } from '@modelcontextprotocol/client';
import type { ToolSafety } from 'switchyard';

/** The MCP hints a server declared for a tool, as it sent them (untrusted unless the server is). */
export interface McpToolHints {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

// The spec's defaults when a hint is absent: may write, destructive, not idempotent, open world.
const UNTRUSTED: ToolSafety = Object.freeze({
  readOnly: false,
  destructive: true,
  idempotent: false,
  openWorld: true,
  sideEffectLevel: 'network',
});

/** The boolean hints of an annotations object, ignoring anything that is not a boolean. */
export function mcpToolHints(annotations: ToolAnnotations | undefined): McpToolHints {
  const hints: Record<string, boolean> = {};
  if (typeof annotations !== 'object' || annotations === null) return hints;
  for (const key of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']) {
    const value = Object.hasOwn(annotations, key)
      ? (annotations as Record<string, unknown>)[key]
      : undefined;
    if (typeof value === 'boolean') hints[key] = value;
  }
  return hints;
}

/**
 * Safety metadata of an MCP tool. The spec calls annotations untrusted: unless the user marks the
 * server `trusted`, every tool is an open-world writer, whatever it claims, so a server cannot buy
 * itself retries, eager starts or parallel lanes. A trusted server's hints map one to one.
 */
export function mcpToolSafety(hints: McpToolHints, trusted: boolean): ToolSafety {
  if (!trusted) return UNTRUSTED;
  const readOnly = hints.readOnlyHint === true;
  const openWorld = hints.openWorldHint ?? true;
  return {
    readOnly,
    destructive: readOnly ? false : (hints.destructiveHint ?? true),
    idempotent: readOnly || hints.idempotentHint === true,
    openWorld,
    sideEffectLevel: readOnly ? 'read_only' : openWorld ? 'network' : 'workspace_write',
    network: openWorld,
  };
}
