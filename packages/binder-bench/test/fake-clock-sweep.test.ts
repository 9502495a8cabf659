import { describe, expect, it } from 'vitest';
import { fakeClock } from '../src/bench-clock.js';
import { drawLatency } from '../src/latency-distribution.js';
import { runBinderBenchmark } from '../src/run-binder-benchmark.js';
import { sampleCases } from '../src/sample-cases.js';
import { CASES } from './bench-fixtures.js';

describe('the sweep on a fake clock', () => {
  it('cuts a fixed-latency simulated binder exactly at its latency (a tie is a timeout)', async () => {
    const result = await runBinderBenchmark({
      cases: CASES,
      binders: [{ type: 'simulated', label: 'steady', latency: { kind: 'fixed', ms: 300 } }],
      budgetsMs: [250, 300, 301],
      clock: fakeClock(),
    });
    expect(result.clock).toBe('virtual');
    expect(
      result.rows.map((row) => [
        row.budgetMs,
        row.statuses.ok,
        row.statuses.timeout,
        row.accuracy,
        row.budgetHitRate,
      ]),
    ).toEqual([
      [250, 0, 5, 0, 0],
      [300, 0, 5, 0, 0],
      [301, 5, 0, 1, 1],
    ]);
    expect(result.rows[0]!.latencyMs).toMatchObject({ p50: 250, p99: 250, mean: 250, stddev: 0 });
    expect(result.rows[2]!.latencyMs).toMatchObject({ p50: 300, mean: 300, stddev: 0 });
    expect(result.rows[0]!.binder).toBe('steady (simulated)');
    expect(result.binders[0]).toMatchObject({ simulated: true, latency: 'fixed 300 ms' });
  });

  it('gives each case the latency drawn for it, the same at every budget and in every run', async () => {
    const latency = { kind: 'lognormal', medianMs: 400, p95Ms: 1500 } as const;
    const options = {
      binders: [{ type: 'simulated', label: 'drawn', latency }] as const,
      budgetsMs: [250, 500, 1000, 2000],
      concurrency: 8,
      seed: 'seed-7',
    };
    const first = await runBinderBenchmark({ ...options, clock: fakeClock() });
    const again = await runBinderBenchmark({ ...options, clock: fakeClock() });
    expect(again.rows).toEqual(first.rows);
    const cases = sampleCases().cases;
    for (const row of first.rows) {
      const hops = first.outcomes.filter(
        (o) => o.budgetMs === row.budgetMs && o.status !== 'skipped',
      );
      const within = hops.filter(
        (o) => drawLatency(latency, `seed-7:drawn:${o.caseId}`) < row.budgetMs,
      );
      expect(row.statuses.ok).toBe(within.length);
      expect(row.statuses.timeout).toBe(hops.length - within.length);
      // A simulated binder answers the expected arguments: every hop in budget is correct.
      expect(
        first.outcomes.filter(
          (o) => o.budgetMs === row.budgetMs && o.status === 'ok' && !o.correct,
        ),
      ).toEqual([]);
    }
    expect(first.rows[0]!.cases).toBe(cases.length);
  });

  it('runs the default offline sweep over the bundled sample: lexical and two simulated binders', async () => {
    const result = await runBinderBenchmark({ clock: fakeClock() });
    expect(result.dataset).toMatchObject({
      source: 'bfcl-sample (bundled)',
      cases: 48,
      excluded: [],
    });
    expect(result.binders.map((binder) => binder.label)).toEqual([
      'lexical',
      'fast (simulated)',
      'slow (simulated)',
    ]);
    expect(result.rows).toHaveLength(12);
    expect(result.references[0]).toMatchObject({ name: 'oracle', accuracy: 1, schemaValidRate: 1 });
    const slow = result.rows
      .filter((row) => row.binder === 'slow (simulated)')
      .map((row) => row.accuracy);
    expect([...slow].sort((a, b) => a - b)).toEqual(slow);
  });

  it('binds the planner half of the required arguments in partial mode', async () => {
    const twoRequired = [
      {
        id: 'area',
        intent: 'Area of a triangle with base 10 and height 5.',
        tools: [
          {
            name: 'area',
            description: 'Triangle area',
            inputSchema: {
              type: 'object',
              properties: { base: { type: 'integer' }, height: { type: 'integer' } },
              required: ['base', 'height'],
            },
          },
        ],
        expected: [{ name: 'area', arguments: { base: [10], height: [5] } }],
      },
    ];
    const seen: unknown[] = [];
    const result = await runBinderBenchmark({
      cases: twoRequired,
      planner: 'partial',
      binders: [
        {
          type: 'custom',
          label: 'spy',
          binderFn: async (request) => {
            seen.push(request.partialArgs);
            return { data: { ...request.partialArgs, height: 5 } };
          },
        },
      ],
      budgetsMs: [100],
      warmup: 0,
      clock: fakeClock(),
    });
    expect(seen).toEqual([{ base: 10 }]);
    expect(result.rows[0]).toMatchObject({ accuracy: 1, statuses: { ok: 1 } });
    expect(result.references[1]).toMatchObject({ name: 'no binder', accuracy: 0 });
  });
});

describe('runBinderBenchmark options', () => {
  it('throws InvalidOptionError naming a bad option before measuring anything', async () => {
    const bad = [
      [{ budgetsMs: [] }, 'budgetsMs'],
      [{ budgetsMs: [0] }, 'budgetsMs'],
      [{ concurrency: 1.5 }, 'concurrency'],
      [{ warmup: -1 }, 'warmup'],
      [{ planner: 'strong' }, 'planner'],
      [{ binders: [] }, 'binders'],
      [{ binders: [{ type: 'openai', model: 'm' }], env: {} }, 'binders'],
      [{ binders: [{ type: 'lexical' }, { type: 'lexical' }] }, 'binders'],
    ] as const;
    for (const [options, option] of bad) {
      await expect(runBinderBenchmark(options as never)).rejects.toMatchObject({
        code: 'SY_ERR_INVALID_OPTION',
        option,
      });
    }
  });
});
