import { describe, expect, it } from 'vitest';
import { freePort } from '../../../test/support/free-port.js';
import { formatBenchTable } from '../src/format-bench-table.js';
import { runBinderBenchmark } from '../src/run-binder-benchmark.js';
import { CASES } from './bench-fixtures.js';

describe('a binder whose endpoint cannot be reached', () => {
  it('hits no budget: every hop is a transport error, and the table says why', async () => {
    const port = await freePort();
    const result = await runBinderBenchmark({
      cases: CASES,
      binders: [{ type: 'openai', model: 'm', baseURL: `http://127.0.0.1:${port}/v1` }],
      budgetsMs: [1000],
      warmup: 0,
      env: {},
    });
    expect(result.rows[0]).toMatchObject({
      hops: 5,
      budgetHitRate: 0,
      statuses: { transport_error: 5 },
    });
    const table = formatBenchTable(result);
    expect(table).toMatch(/^openai:m\s+1000\s+0\.0\s+0\.0\s+0\.0\s/m);
    expect(table).toMatch(/openai:m: 5 of 5 hops failed in transport \(.*Connection error.*\)/);
  });
});
