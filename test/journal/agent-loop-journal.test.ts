import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { agentLoop } from '../../src/index.js';
import {
  createFileJournalStore,
  type JournalStore,
  openRunJournal,
  resolveInDoubtCall,
} from '../../src/journal/index.js';
import { ORDER_PLAN, orderTools, planModel } from '../fixtures/journal/orders.js';
import { tempDir } from '../support/temp-dir.js';

const RUNNER = fileURLToPath(new URL('../fixtures/journal/run-orders.ts', import.meta.url));

interface Bed {
  readonly dir: string;
  readonly ledger: string;
  readonly store: JournalStore;
  readonly env: Record<string, string>;
}

function bed(): Bed {
  const dir = tempDir('switchyard-agent-journal-');
  const ledger = join(dir, 'ledger.txt');
  return {
    dir,
    ledger,
    store: createFileJournalStore({ directory: join(dir, 'journal') }),
    env: { JOURNAL_DIR: join(dir, 'journal'), LEDGER: ledger, MARKERS: dir },
  };
}

function ledgerLines(path: string): string[] {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
}

/** The runner in a child process of its own, from the sources. */
function startRunner(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', RUNNER], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/** Resolves once `path` exists (checked every 20 ms); rejects after `ms`. */
async function until(path: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!existsSync(path)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${path}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Runs the order agent in this process against the bed's journal (run `orders`). */
async function resume(test: Bed, hangAt = '') {
  const journal = await openRunJournal({ store: test.store, runId: 'orders' });
  const model = planModel(ORDER_PLAN);
  try {
    const run = await agentLoop({
      task: 'record three orders',
      model,
      tools: orderTools(test.ledger, test.dir, hangAt),
      journal,
    });
    return { run, asked: model.asked };
  } finally {
    await journal.close();
  }
}

describe('agentLoop with a journal, killed with SIGKILL between a call’s effect and its record', () => {
  it('never runs a call twice: a resumed run replays turns and results and stops in doubt', async () => {
    const test = bed();
    const child = startRunner({ ...test.env, HANG_AT: 'record_order:2' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await until(join(test.dir, 'record_order-2.hang'), 20_000);
    child.kill('SIGKILL');
    await exited;
    const effects = ledgerLines(test.ledger).map((line) => line.split(' ').slice(0, 2).join(' '));
    expect(effects.sort()).toEqual(['record_order 1', 'record_order 2', 'record_order 3']);

    // Resumed: both finished turns come from the journal (the model is not asked), order 1 and
    // order 3 from their records, order 2 is in doubt: nothing runs, and the run says so.
    const first = await resume(test);
    expect(first.asked).toEqual([]);
    expect(first.run.status).toBe('in_doubt');
    expect(first.run.replayed).toEqual({ modelTurns: 2, toolCalls: 2 });
    expect(first.run.inDoubt).toEqual([
      expect.objectContaining({
        runId: 'orders',
        toolName: 'record_order',
        arguments: { order: 2 },
      }),
    ]);
    expect(first.run.results.map((result) => result.status)).toEqual(['ok', 'in_doubt', 'ok']);
    expect(ledgerLines(test.ledger)).toHaveLength(3);

    // An operator finds order 2 was recorded and says so: the run goes on to its answer.
    await resolveInDoubtCall(test.store, 'orders', {
      callId: first.run.inDoubt[0]!.callId,
      resolution: 'done',
    });
    const second = await resume(test);
    expect(second.run.status).toBe('completed');
    expect(second.run.text).toBe('three orders recorded');
    expect(second.asked).toEqual([2]);
    expect(ledgerLines(test.ledger)).toHaveLength(3);
  }, 40_000);

  it('runs again, with the same idempotency key, a call whose tool honours the key', async () => {
    const test = bed();
    const plan = [{ toolCalls: [{ name: 'pay', arguments: { order: 1 } }] }, { text: 'paid' }];
    // The first run is cut off inside the payment, in this process: its signal aborts.
    const journal = await openRunJournal({ store: test.store, runId: 'orders' });
    const controller = new AbortController();
    const tools = orderTools(test.ledger, test.dir, 'pay:1');
    const cut = agentLoop({
      task: 'pay',
      model: planModel(plan),
      tools,
      journal,
      signal: controller.signal,
    });
    await until(join(test.dir, 'pay-1.hang'), 10_000);
    controller.abort();
    expect((await cut).status).toBe('cancelled');
    expect(journal.inDoubtCalls()).toHaveLength(1);
    await journal.close();
    const again = await openRunJournal({ store: test.store, runId: 'orders' });
    const run = await agentLoop({
      task: 'pay',
      model: planModel(plan),
      tools: orderTools(test.ledger, test.dir),
      journal: again,
    });
    await again.close();
    expect(run.status).toBe('completed');
    const keys = ledgerLines(test.ledger).map((line) => line.split(' ')[2]);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });
});

describe('agentLoop with a journal: replays', () => {
  it('matches text-mode calls by their place, though their ids are new on every replay', async () => {
    const test = bed();
    const model = () => planModel(ORDER_PLAN, 'text');
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const journal = await openRunJournal({ store: test.store, runId: 'text' });
      const run = await agentLoop({
        task: 'record three orders',
        model: model(),
        tools: orderTools(test.ledger, test.dir),
        journal,
      });
      await journal.close();
      expect(run.status).toBe('completed');
    }
    expect(ledgerLines(test.ledger)).toHaveLength(3);
  });

  it('refuses a runId other than the journal’s', async () => {
    const test = bed();
    const journal = await openRunJournal({ store: test.store, runId: 'orders' });
    await expect(
      agentLoop({
        task: 't',
        model: planModel(ORDER_PLAN),
        tools: orderTools(test.ledger, test.dir),
        journal,
        runId: 'other',
      }),
    ).rejects.toMatchObject({ option: 'runId' });
    await journal.close();
  });
});
