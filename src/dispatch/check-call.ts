import type { AnyTool } from '../tools/tool-registry.js';
import { callStateOf, isAdvertised } from './call-state.js';
import type { ToolCallEnvelope } from './envelope.js';
import type { ExecuteCallDeps } from './execute-call-deps.js';
import { policyDenial, policyDeniedResult } from './execution-policy.js';
import { shortCircuitResult, type ToolCallResult } from './result.js';
import { toolNotFoundMessage } from './tool-not-found-message.js';

function refuse(call: ToolCallEnvelope, status: string, message: string): ToolCallResult {
  return shortCircuitResult(call, {
    status,
    error: message,
    errorCategory: status,
    observation: message,
  });
}

export function isRefusal(checked: ToolCallResult | AnyTool): checked is ToolCallResult {
  return 'toolCallId' in checked;
}

/** The tool to run, or the refusal of a call that may not run. */
export function checkCall(deps: ExecuteCallDeps, call: ToolCallEnvelope): ToolCallResult | AnyTool {
  const state = callStateOf(call);
  if (state === undefined) {
    return refuse(
      call,
      'policy_blocked',
      'the call envelope was not derived from the dispatched call (build it with { ...call, … })',
    );
  }
  if (state.malformed === true && !state.validation.valid) {
    return refuse(call, 'schema_violation', state.validation.message);
  }
  const tool =
    call.toolName === state.tool?.name ? state.tool : deps.registry.resolve(call.toolName);
  if (tool === undefined || !isAdvertised(tool, state.advertised)) {
    return refuse(
      call,
      'tool_not_found',
      toolNotFoundMessage(call.toolName, deps.registry, state.advertised),
    );
  }
  if (state.unparseable && !state.validation.valid) {
    return refuse(call, 'schema_violation', state.validation.message);
  }
  const denial = state.policy === undefined ? null : policyDenial(state.policy, tool);
  if (denial !== null) return policyDeniedResult(call, denial);
  const unchanged = tool === state.tool && call.toolArgs === state.args;
  if (unchanged && !state.validation.valid) {
    return refuse(call, 'schema_violation', state.validation.message);
  }
  // Arrival checked the model-visible schema; the handler's own schema needs a check of its own
  // unless it is that very schema and the arguments did not change.
  if (!unchanged || tool.handlerSchema !== tool.inputSchema) {
    const check = deps.validator.check(tool.name, tool.handlerSchema, call.toolArgs);
    if (!check.valid) return refuse(call, 'schema_violation', check.repair);
  }
  return tool;
}
