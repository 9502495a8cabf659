// Shared fixtures of the middleware tests: small tools, hand-built envelopes and fake `next`s.
import type { ToolCallEnvelope } from '../../src/dispatch/envelope.js';
import type { ToolCallResult } from '../../src/dispatch/result.js';
import type { Next } from '../../src/dispatch/tool-caller.js';
import type { JsonObject } from '../../src/tools/json.js';
import { resolveSafety } from '../../src/tools/tool-safety.js';
import type { ToolSafety } from '../../src/tools/tool-spec.js';

/** A plain envelope as a dispatcher would build it (without the internal call state). */
export function fakeCall(
  overrides: Partial<ToolCallEnvelope> & { safety?: ToolSafety } = {},
): ToolCallEnvelope {
  const { safety, ...rest } = overrides;
  return {
    toolName: 'echo',
    toolArgs: {},
    callId: 'call_1',
    declaredExecutor: 'inline',
    schema: { type: 'object' },
    description: '',
    annotations: { safety: resolveSafety(safety ?? { readOnly: true }) },
    turn: {
      iteration: 0,
      sessionId: 's',
      runId: null,
      model: null,
      provider: null,
      emitOrder: 0,
      maxConcurrentTools: 1,
    },
    signal: undefined,
    validation: { valid: true },
    ...rest,
  };
}

/** An envelope whose tool the dispatcher did not know. */
export function unknownToolCall(overrides: Partial<ToolCallEnvelope> = {}): ToolCallEnvelope {
  return fakeCall({
    toolName: 'nope',
    annotations: {},
    validation: { valid: false, status: 'tool_not_found', message: 'Unknown tool', issues: [] },
    ...overrides,
  });
}

/** The result an executor would give for a successful call. */
export function okResult(call: ToolCallEnvelope, value: unknown = 'done'): ToolCallResult {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return {
    ok: true,
    status: 'ok',
    toolName: call.toolName,
    toolCallId: call.callId,
    arguments: call.toolArgs,
    result: value,
    renderedResult: text,
    observation: text,
    error: null,
    errorCategory: null,
    executor: 'inline',
    executionDurationMs: 1,
    emitOrder: call.turn.emitOrder,
  };
}

/** The result an executor would give for a tool that threw. */
export function failedResult(call: ToolCallEnvelope, error = 'boom'): ToolCallResult {
  return {
    ...okResult(call, null),
    ok: false,
    status: 'error',
    renderedResult: error,
    observation: `[error from ${call.toolName}]\n${error}\n[end of ${call.toolName} error]`,
    error,
    errorCategory: 'tool_error',
  };
}

/** A `next` that records the calls it receives and answers with `respond` (default: ok). */
export function recordingNext(
  respond: (call: ToolCallEnvelope) => ToolCallResult | Promise<ToolCallResult> = okResult,
): Next & { readonly calls: ToolCallEnvelope[] } {
  const calls: ToolCallEnvelope[] = [];
  const next = async (call: ToolCallEnvelope) => {
    calls.push(call);
    return respond(call);
  };
  return Object.assign(next, { calls });
}

export const textArgs = (text: string): JsonObject => ({ text });

/** An object schema over string properties, closed to others. */
export function closedSchema(...names: string[]) {
  return {
    type: 'object',
    properties: Object.fromEntries(names.map((name) => [name, { type: 'string' }])),
    required: names,
    additionalProperties: false,
  } as const;
}
