/**
 * Overhead of the natural-language binder layer itself, for latency budgets of tool-argument
 * binders: the binder is instant (`binderFn` resolves at once), so what is measured is everything
 * the middleware adds around a real model hop — reading and stripping the intent, the validity
 * check, rendering the prompt, arming and clearing the budget timer, reading and validating the
 * answer, merging the audit. Baseline, measured in the same run: a pass-through layer in the same
 * `composeToolCallers` stack over the same `next`.
 *
 * Run: npx tsx bench/binder-latency.bench.ts   (about 8 s)
 */

import type {
  JsonObject,
  JsonSchema,
  Next,
  ToolCallEnvelope,
  ToolCaller,
  ToolCallResult,
} from 'switchyard';
import { composeToolCallers, withNaturalLanguageExecutor } from 'switchyard/middleware';
import { Bench } from 'tinybench';

const HANDLER_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 1 },
    unit: { type: 'string', enum: ['c', 'f'] },
    days: { type: 'integer', minimum: 1, maximum: 14 },
  },
  required: ['city', 'unit'],
  additionalProperties: false,
};
const MODEL_SCHEMA: JsonSchema = {
  ...HANDLER_SCHEMA,
  properties: { ...(HANDLER_SCHEMA.properties as object), _nl_intent: { type: 'string' } },
};
const BOUND: JsonObject = { city: 'Paris', unit: 'c', days: 3 };
const BOUND_TEXT = JSON.stringify(BOUND);

function call(toolArgs: JsonObject): ToolCallEnvelope {
  return {
    toolName: 'get_forecast',
    toolArgs,
    callId: 'call_1',
    declaredExecutor: 'inline',
    schema: MODEL_SCHEMA,
    description: 'Weather forecast for a city',
    annotations: {},
    turn: {
      iteration: 1,
      sessionId: 'bench',
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

const answer: ToolCallResult = {
  ok: true,
  status: 'ok',
  toolName: 'get_forecast',
  toolCallId: 'call_1',
  arguments: {},
  result: 'sunny',
  renderedResult: 'sunny',
  observation: 'sunny',
  error: null,
  errorCategory: null,
  executor: 'inline',
  executionDurationMs: 0,
  emitOrder: 0,
};
const next: Next = async () => answer;

const passThrough: ToolCaller = function passThrough(envelope, inner) {
  return inner(envelope);
};
const base = { provider: 'bench', model: 'instant' } as const;
const binderData = withNaturalLanguageExecutor({
  ...base,
  binderFn: async () => ({ data: BOUND }),
});
const binderText = withNaturalLanguageExecutor({
  ...base,
  binderFn: async () => ({ text: BOUND_TEXT }),
});

const intentOnly = call({ _nl_intent: 'three days of Paris weather in celsius' });
const alreadyValid = call({ ...BOUND, _nl_intent: 'three days of Paris weather in celsius' });
const noIntent = call({ city: 'Paris' });

const cases: [string, ToolCaller, ToolCallEnvelope][] = [
  ['baseline: pass-through layer', composeToolCallers([passThrough]), intentOnly],
  ['binder skip: no_intent', composeToolCallers([binderData]), noIntent],
  ['binder skip: args_already_valid', composeToolCallers([binderData]), alreadyValid],
  ['binder hop: instant binderFn (data)', composeToolCallers([binderData]), intentOnly],
  ['binder hop: instant binderFn (JSON text)', composeToolCallers([binderText]), intentOnly],
];

// Every case must do what its name says before it is timed.
const expected = ['', 'no_intent', 'args_already_valid', 'ok', 'ok'];
for (const [index, [name, caller, envelope]] of cases.entries()) {
  const result = await caller(envelope, next);
  const binder = result.audit?.binder as { status: string; reason?: string } | undefined;
  const got = binder === undefined ? '' : (binder.reason ?? binder.status);
  if (got !== expected[index]) throw new Error(`${name}: expected ${expected[index]}, got ${got}`);
}

const bench = new Bench({ time: 1200, warmupTime: 300 });
for (const [name, caller, envelope] of cases) bench.add(name, () => caller(envelope, next));
await bench.run();

const rows = bench.tasks.map((task) => {
  const result = task.result;
  if (result.state !== 'completed') throw new Error(`${task.name}: ${result.state}`);
  return { name: task.name, mean: result.latency.mean, p99: result.latency.p99 };
});
const baseline = rows[0]!.mean;
console.table(
  rows.map((row) => ({
    case: row.name,
    'mean µs': (row.mean * 1000).toFixed(2),
    'p99 µs': (row.p99 * 1000).toFixed(2),
    'ops/s': Math.round(1000 / row.mean).toLocaleString('en-US'),
    'overhead µs': ((row.mean - baseline) * 1000).toFixed(2),
    '× baseline': (row.mean / baseline).toFixed(1),
  })),
);
