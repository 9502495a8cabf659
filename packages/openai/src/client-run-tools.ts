/**
 * Responses tools whose calls the client has to carry out and answer. Offered as hosted tools,
 * their calls would reach nobody: the adapter records hosted calls and never answers them.
 */
const CLIENT_RUN_TOOLS = new Set([
  'function',
  'namespace',
  'custom',
  'computer',
  'computer_use_preview',
  'local_shell',
  'apply_patch',
]);

/**
 * Output items that wait for the client's answer (`computer_call_output`, an MCP approval, …).
 * Should one arrive anyway, it is proposed as an ordinary call, so it fails as an unknown tool
 * and the model hears so, rather than being recorded and left unanswered.
 */
export const CLIENT_RUN_ITEMS: ReadonlySet<string> = new Set([
  'computer_call',
  'local_shell_call',
  'apply_patch_call',
  'custom_tool_call',
  'mcp_approval_request',
]);

/** Why a hosted tool would need the client to answer its calls; null when OpenAI runs it alone. */
export function clientRunReason(tool: { readonly type: string }): string | null {
  const { type } = tool;
  if (CLIENT_RUN_TOOLS.has(type)) {
    return type === 'function' || type === 'namespace' || type === 'custom'
      ? `"${type}" tools are answered by the client: declare them with defineTool and pass them in request.tools`
      : `"${type}" calls are carried out by the client, not by OpenAI`;
  }
  if (type === 'shell') {
    const environment = (tool as { environment?: { type?: unknown } | null }).environment;
    const hosted =
      environment?.type === 'container_auto' || environment?.type === 'container_reference';
    return hosted ? null : '"shell" runs on the client unless its environment is a container';
  }
  if (type === 'mcp' && (tool as { require_approval?: unknown }).require_approval !== 'never') {
    return 'a hosted "mcp" tool asks the client to approve each call unless require_approval is "never"';
  }
  return null;
}
