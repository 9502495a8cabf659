import type { JsonObject, ToolCallEnvelope } from 'switchyard';
import { type BenchCase, expectedToolOf } from './bench-case.js';
import { oracleArguments } from './match-arguments.js';

/**
 * How the weak planner is simulated. `intent`: a call to the right tool carrying only
 * `_nl_intent` (the case's intent). `partial`: the same plus the first half (rounded down) of the
 * tool's required arguments, in `required` order, with their expected values.
 */
export type PlannerMode = 'intent' | 'partial';

/** The arguments the simulated planner sends, intent field included. */
export function plannerArguments(
  benchCase: BenchCase,
  mode: PlannerMode,
  intentField: string,
): JsonObject {
  const args: JsonObject = {};
  if (mode === 'partial') {
    const oracle = oracleArguments(benchCase.expected[0]!.arguments);
    const schema = expectedToolOf(benchCase).inputSchema;
    const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
    for (const name of required.slice(0, Math.floor(required.length / 2))) {
      if (typeof name === 'string' && Object.hasOwn(oracle, name)) args[name] = oracle[name]!;
    }
  }
  args[intentField] = benchCase.intent;
  return args;
}

/** The call as the binder layer sees it outside a dispatcher: the tool's own schema, one turn. */
export function plannerCall(benchCase: BenchCase, toolArgs: JsonObject): ToolCallEnvelope {
  const tool = expectedToolOf(benchCase);
  return {
    toolName: tool.name,
    toolArgs,
    callId: `bench_${benchCase.id}`,
    declaredExecutor: 'inline',
    schema: tool.inputSchema,
    description: tool.description,
    annotations: {},
    turn: {
      iteration: 1,
      sessionId: 'bench-binder',
      runId: null,
      model: null,
      provider: null,
      emitOrder: 0,
      maxConcurrentTools: 1,
    },
    signal: undefined,
    validation: { valid: true },
  };
}
