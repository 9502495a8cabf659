import { afterEach, describe, expect, it } from 'vitest';
import { runBinderBenchmark } from '../src/run-binder-benchmark.js';
import {
  type SimulatedBinderServer,
  startSimulatedBinderServer,
} from '../src/simulated-binder-server.js';
import { CASES } from './bench-fixtures.js';

describe('simulated binders on the wall clock (a loopback OpenAI-compatible server)', () => {
  let server: SimulatedBinderServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it('answers the expected arguments through the OpenAI SDK: the oracle within budget', async () => {
    const result = await runBinderBenchmark({
      cases: CASES,
      binders: [{ type: 'simulated', label: 'instant', latency: { kind: 'fixed', ms: 0 } }],
      budgetsMs: [30_000],
      warmup: 1,
    });
    expect(result.clock).toBe('wall');
    expect(result.rows[0]).toMatchObject({
      binder: 'instant (simulated)',
      simulated: true,
      accuracy: 1,
      schemaValidRate: 1,
      budgetHitRate: 1,
      statuses: { ok: 5, timeout: 0, transport_error: 0, schema_error: 0, skipped: 0 },
    });
  });

  it('is cut by the budget when its latency is longer (the client goes away, the run ends)', async () => {
    const result = await runBinderBenchmark({
      cases: CASES,
      binders: [{ type: 'simulated', label: 'stuck', latency: { kind: 'fixed', ms: 600_000 } }],
      budgetsMs: [20],
      concurrency: 5,
      warmup: 0,
    });
    expect(result.rows[0]).toMatchObject({
      accuracy: 0,
      budgetHitRate: 0,
      statuses: { timeout: 5 },
    });
  });

  it('answers 404 to a prompt it has no answer for', async () => {
    server = await startSimulatedBinderServer({ answers: new Map(), latencyOf: () => 0 });
    const response = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'unknown' }] }),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { type: 'not_found' } });
  });
});
