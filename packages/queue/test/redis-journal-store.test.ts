import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentLoop, InvalidOptionError } from 'switchyard';
import {
  type JournalRecord,
  type JournalStore,
  listInDoubtCalls,
  openRunJournal,
  resolveInDoubtCall,
} from 'switchyard/journal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_PLAN, orderTools, planModel } from '../../../test/fixtures/journal/orders.js';
import { type RedisServer, startRedisServer } from '../../../test/support/redis-server.js';
import { tempDir } from '../../../test/support/temp-dir.js';
import { createRedisJournalStore } from '../src/index.js';

const RUNNER = fileURLToPath(new URL('./fixtures/run-orders-redis.ts', import.meta.url));

let redis: RedisServer;
const stores: JournalStore[] = [];
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  await redis.stop();
});

/** A store of its own, as another process would have: its own Redis connection. */
function store(name = 'journal'): JournalStore {
  const made = createRedisJournalStore({ connection: redis.url, name });
  stores.push(made);
  return made;
}

const intent = (key: string): JournalRecord => ({
  type: 'intent',
  key,
  attempt: 1,
  callId: key,
  toolName: 'charge',
  arguments: {},
  idempotencyKey: `sy-${key}`,
  at: 1,
});

describe('createRedisJournalStore', () => {
  it('keeps a run’s records in order and reads them from any connection', async () => {
    const name = 'order';
    const run = await store(name).open('run/1');
    const records: JournalRecord[] = [
      intent('a'),
      { type: 'turn', iteration: 0, deltas: [{ type: 'text', text: 'hi' }] },
    ];
    expect(await Promise.all(records.map((record) => run.append(record)))).toEqual([true, true]);
    await run.close();
    expect(await store(name).read('run/1')).toEqual(records);
    expect(await store(name).list()).toEqual(['run/1']);
    expect(await store(name).read('nothing')).toBeUndefined();
  });

  it('lets one of two processes claim a call, however they race', async () => {
    const name = 'race';
    const [first, second] = await Promise.all([store(name).open('r'), store(name).open('r')]);
    const claims = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        (index % 2 === 0 ? first : second).append(intent(`k${index >> 1}`)),
      ),
    );
    // Each of the ten calls was claimed exactly once.
    for (let call = 0; call < 10; call += 1) {
      expect(claims.slice(call * 2, call * 2 + 2).filter(Boolean)).toHaveLength(1);
    }
    expect((await store(name).read('r'))?.length).toBe(10);
  });

  it('rejects a connection that is not a redis URL', () => {
    expect(() => createRedisJournalStore({ connection: 'localhost:6379' })).toThrow(
      InvalidOptionError,
    );
  });
});

describe('agentLoop with the Redis journal store, killed with SIGKILL mid-call', () => {
  it('resumes in another process without running a call twice, and surfaces the one in doubt', async () => {
    const dir = tempDir('switchyard-redis-journal-');
    const ledger = join(dir, 'ledger.txt');
    const env = { REDIS_URL: redis.url, RUN_ID: 'orders', LEDGER: ledger, MARKERS: dir };
    const child = spawn(process.execPath, ['--import', 'tsx', RUNNER], {
      env: { ...process.env, ...env, HANG_AT: 'record_order:2' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const marker = join(dir, 'record_order-2.hang');
    for (const deadline = Date.now() + 20_000; !existsSync(marker); ) {
      if (Date.now() > deadline) throw new Error('the child never reached order 2');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    child.kill('SIGKILL');
    await exited;
    const lines = () => readFileSync(ledger, 'utf8').split('\n').filter(Boolean);
    expect(lines()).toHaveLength(3);

    const shared = store();
    const journal = await openRunJournal({ store: shared, runId: 'orders' });
    const model = planModel(ORDER_PLAN);
    const run = await agentLoop({
      task: 'record three orders',
      model,
      tools: orderTools(ledger, dir),
      journal,
    });
    await journal.close();
    expect(run.status).toBe('in_doubt');
    expect(model.asked).toEqual([]);
    expect(lines()).toHaveLength(3);
    const [doubt] = await listInDoubtCalls(shared);
    expect(doubt).toMatchObject({ runId: 'orders', arguments: { order: 2 } });
    await resolveInDoubtCall(shared, 'orders', { callId: doubt!.callId, resolution: 'done' });
    const again = await openRunJournal({ store: shared, runId: 'orders' });
    const finished = await agentLoop({
      task: 'record three orders',
      model: planModel(ORDER_PLAN),
      tools: orderTools(ledger, dir),
      journal: again,
    });
    await again.close();
    expect(finished.status).toBe('completed');
    expect(lines()).toHaveLength(3);
  }, 40_000);
});
