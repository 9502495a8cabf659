import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AnthropicWireServer,
  errorReply as anthropicError,
  messageBody,
  startAnthropicWireServer,
} from '../../../test/support/anthropic-wire-server.js';
import {
  CHAT_PATH,
  chatCompletionReply,
  errorReply,
  type OpenAIWireServer,
  startOpenAIWireServer,
} from '../../../test/support/openai-wire-server.js';
import { runBinderBenchmark } from '../src/run-binder-benchmark.js';
import { CASES, playLatencies, right, scriptedClock } from './bench-fixtures.js';

// One script for both wires, per budget, in case order: [reply, latency ms].
// case_0 right after 50 · case_1 right after 200 · case_2 wrong city after 20 · case_3 HTTP 500
// after 10 · case_4 prose instead of JSON after 30. Budgets 100 and 300.
const LATENCIES = [50, 200, 20, 10, 30];
const BUDGETS = [100, 300];

function expectScriptedRows(
  result: Awaited<ReturnType<typeof runBinderBenchmark>>,
  binder: string,
) {
  expect(result.rows.map((row) => row.budgetMs)).toEqual(BUDGETS);
  const [tight, loose] = result.rows;
  expect(tight).toMatchObject({
    binder,
    simulated: false,
    cases: 5,
    hops: 5,
    statuses: { ok: 2, timeout: 1, transport_error: 1, schema_error: 1, skipped: 0 },
    // Answered in time: the two right answers and the one that did not fit the schema.
    budgetHitRate: 0.6,
    accuracy: 0.2,
    schemaValidRate: 0.4,
    latencyMs: { count: 5, p50: 30, p95: 200, p99: 200, mean: 62 },
  });
  // Population standard deviation of [50, 200, 20, 10, 30]: sqrt(24680 / 5).
  expect(tight!.latencyMs.stddev).toBe(70.26);
  expect(loose).toMatchObject({
    statuses: { ok: 3, timeout: 0, transport_error: 1, schema_error: 1, skipped: 0 },
    budgetHitRate: 0.8,
    accuracy: 0.4,
    schemaValidRate: 0.6,
  });
  const statusOf = (budgetMs: number) =>
    result.outcomes
      .filter((outcome) => outcome.budgetMs === budgetMs)
      .map((outcome) => outcome.status);
  expect(statusOf(100)).toEqual(['ok', 'timeout', 'ok', 'transport_error', 'schema_error']);
  expect(statusOf(300)).toEqual(['ok', 'ok', 'ok', 'transport_error', 'schema_error']);
  expect(result.references).toEqual([
    { name: 'oracle', cases: 5, schemaValidRate: 1, accuracy: 1 },
    { name: 'no binder', cases: 5, schemaValidRate: 0, accuracy: 0 },
  ]);
}

describe('an OpenAI-compatible binder over the wire, scripted', () => {
  let server: OpenAIWireServer;
  beforeEach(async () => {
    server = await startOpenAIWireServer();
  });
  afterEach(async () => {
    await server.close();
  });

  function queueScript(): void {
    for (const _budget of BUDGETS) {
      server.reply(
        CHAT_PATH,
        chatCompletionReply([], { text: JSON.stringify(right(0)) }),
        chatCompletionReply([], { text: JSON.stringify(right(1)) }),
        chatCompletionReply([], { text: JSON.stringify({ city: 'Berlin' }) }),
        errorReply(500, 'upstream broke', { type: 'server_error' }),
        chatCompletionReply([], { text: 'Sure! The city is Kyiv.' }),
      );
    }
  }

  it('reports exactly the statuses, hit rates, accuracies and latencies the script implies', async () => {
    queueScript();
    const clock = scriptedClock();
    const [result] = await Promise.all([
      runBinderBenchmark({
        cases: CASES,
        binders: [
          { type: 'openai', model: 'binder-mini', baseURL: server.baseURL, apiKey: 'test-key' },
        ],
        budgetsMs: BUDGETS,
        concurrency: 1,
        warmup: 0,
        clock,
      }),
      playLatencies(server, clock, [...LATENCIES, ...LATENCIES]),
    ]);
    expectScriptedRows(result, 'openai:binder-mini');
    expect(server.requests).toHaveLength(10);
    const body = server.requests[0]!.body;
    expect(body.model).toBe('binder-mini');
    expect(body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'get_weather', strict: false },
    });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer test-key');
  });

  it('leaves warm-up requests out of every figure', async () => {
    server.reply(CHAT_PATH, errorReply(500, 'cold start'), errorReply(500, 'cold start'));
    queueScript();
    const clock = scriptedClock();
    const [result] = await Promise.all([
      runBinderBenchmark({
        cases: CASES,
        binders: [
          {
            type: 'openai',
            model: 'binder-mini',
            baseURL: server.baseURL,
            apiKeyEnv: 'BENCH_TEST_KEY',
          },
        ],
        env: { BENCH_TEST_KEY: 'from-env' },
        budgetsMs: BUDGETS,
        concurrency: 1,
        warmup: 2,
        clock,
      }),
      playLatencies(server, clock, [5000, 5000, ...LATENCIES, ...LATENCIES]),
    ]);
    expectScriptedRows(result, 'openai:binder-mini');
    expect(server.requests).toHaveLength(12);
    expect(server.requests[0]!.headers.authorization).toBe('Bearer from-env');
  });
});

describe('an Anthropic binder over the wire, scripted', () => {
  let server: AnthropicWireServer;
  beforeEach(async () => {
    server = await startAnthropicWireServer();
  });
  afterEach(async () => {
    await server.close();
  });

  const text = (value: string) => ({ json: messageBody([{ type: 'text', text: value }]) });

  it('reports exactly the statuses, hit rates, accuracies and latencies the script implies', async () => {
    for (const _budget of BUDGETS) {
      server.reply(
        text(JSON.stringify(right(0))),
        text(JSON.stringify(right(1))),
        text(JSON.stringify({ city: 'Berlin' })),
        anthropicError(500, 'api_error'),
        text('Sure! The city is Kyiv.'),
      );
    }
    const clock = scriptedClock();
    const [result] = await Promise.all([
      runBinderBenchmark({
        cases: CASES,
        binders: [
          {
            type: 'anthropic',
            model: 'claude-binder',
            label: 'haiku',
            baseURL: server.baseURL,
            apiKey: 'test-key',
          },
        ],
        budgetsMs: BUDGETS,
        concurrency: 1,
        warmup: 0,
        clock,
      }),
      playLatencies(server, clock, [...LATENCIES, ...LATENCIES]),
    ]);
    expectScriptedRows(result, 'haiku');
    expect(server.requests[0]!.body).toMatchObject({
      model: 'claude-binder',
      output_config: { format: { type: 'json_schema' } },
    });
    expect(result.binders).toEqual([
      {
        label: 'haiku',
        type: 'anthropic',
        provider: 'anthropic',
        model: 'claude-binder',
        simulated: false,
      },
    ]);
  });
});
