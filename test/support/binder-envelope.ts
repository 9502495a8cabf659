import { vi } from 'vitest';
import type { ToolCallEnvelope } from '../../src/dispatch/envelope.js';
import type { ToolCallResult } from '../../src/dispatch/result.js';
import type { BinderAudit } from '../../src/middleware/index.js';
import type { JsonObject, JsonSchema } from '../../src/tools/json.js';

/** The handler's own schema of the weather tool used across the binder tests. */
export const WEATHER_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 1 },
    unit: { type: 'string', enum: ['c', 'f'] },
  },
  required: ['city', 'unit'],
  additionalProperties: false,
};

/** The model-visible schema: the handler's plus the optional intent field. */
export const WEATHER_WITH_INTENT: JsonSchema = {
  ...WEATHER_SCHEMA,
  properties: {
    ...(WEATHER_SCHEMA.properties as object),
    _nl_intent: { type: 'string' },
  },
};

/** An envelope as a middleware outside a dispatcher sees it (no dispatcher record). */
export function weatherCall(
  toolArgs: JsonObject,
  overrides: Partial<ToolCallEnvelope> = {},
): ToolCallEnvelope {
  return {
    toolName: 'get_weather',
    toolArgs,
    callId: 'call_1',
    declaredExecutor: 'inline',
    schema: WEATHER_WITH_INTENT,
    description: 'Current weather in a city',
    annotations: {},
    turn: {
      iteration: 1,
      sessionId: 's1',
      runId: null,
      model: null,
      provider: null,
      emitOrder: 0,
      maxConcurrentTools: 1,
    },
    signal: undefined,
    validation: { valid: true },
    ...overrides,
  };
}

/** A `next` that records the envelopes it receives and answers ok with their arguments. */
export function recordingNext() {
  return vi.fn(
    async (call: ToolCallEnvelope): Promise<ToolCallResult> => ({
      ok: true,
      status: 'ok',
      toolName: call.toolName,
      toolCallId: call.callId,
      arguments: call.toolArgs,
      result: call.toolArgs,
      renderedResult: JSON.stringify(call.toolArgs),
      observation: JSON.stringify(call.toolArgs),
      error: null,
      errorCategory: null,
      executor: 'inline',
      executionDurationMs: 1,
      emitOrder: call.turn.emitOrder,
      audit: { layers: [{ name: 'inner', status: 'ok' }] },
    }),
  );
}

/** The binder's audit record on a result, typed. */
export function binderAuditOf(result: ToolCallResult): BinderAudit | undefined {
  return result.audit?.binder as BinderAudit | undefined;
}
