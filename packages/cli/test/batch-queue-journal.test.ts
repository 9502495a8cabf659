// `switchyard batch --queue` with its run journals in Redis: three `batch --worker` processes, one
// killed with SIGKILL while its tasks' non-idempotent calls run. Their tasks are re-run on the
// other workers from the shared journal: the calls are in doubt, never run twice, and their tasks
// never reported done until an operator resolves them; a task waiting for approval parks.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedisServer } from '../../../test/support/redis-server.js';
import { tempDir } from '../../../test/support/temp-dir.js';
import { ledgerLines, saidOnStderr, until } from '../../queue/test/worker-processes.js';
import { approvalsCommand } from '../src/approvals-command.js';
import { batchCommand } from '../src/batch-command.js';
import { inDoubtCommand } from '../src/in-doubt-command.js';
import { captureIo } from './cli-io.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const FIXTURES = join(ROOT, 'test/fixtures');
const ORDERS = ['o1', 'o2', 'o3', 'o4', 'o5', 'o6'];
const dir = tempDir('switchyard-batch-queue-journal-');
const env = { LEDGER: join(dir, 'ledger.txt'), MARKERS: dir, RELEASE: join(dir, 'release') };
const agent = [
  '--tools',
  join(FIXTURES, 'order-tools.ts'),
  '--model-module',
  join(FIXTURES, 'order-model.ts'),
  '--approvals',
];
let redis: RedisServer;
const workers: ChildProcess[] = [];

async function startWorker(): Promise<ChildProcess> {
  const worker = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'src/main.ts'),
      'batch',
      '--worker',
      '--queue',
      redis.url,
      '--journal',
      redis.url,
      '--sessions',
      '2',
      '--lock-ms',
      '1000',
      '--stalled-ms',
      '500',
      ...agent,
    ],
    { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  workers.push(worker);
  await saidOnStderr(worker, 'taking tasks');
  return worker;
}

beforeAll(async () => {
  redis = await startRedisServer();
  await Promise.all([startWorker(), startWorker(), startWorker()]);
}, 60_000);

afterAll(async () => {
  for (const worker of workers) {
    if (worker.exitCode !== null || worker.signalCode !== null) continue;
    const exited = once(worker, 'exit');
    worker.kill('SIGKILL');
    await exited;
  }
  await redis?.stop();
}, 30_000);

describe('switchyard batch --queue with a Redis journal', () => {
  it('surfaces the calls a killed worker was running, runs none twice, and finishes once resolved', async () => {
    const tasksFile = join(dir, 'tasks.jsonl');
    const tasks = [
      ...ORDERS.map((id) => ({ id, task: `order ${id}` })),
      { id: 'give-back', task: 'refund give-back' },
    ];
    writeFileSync(tasksFile, tasks.map((task) => JSON.stringify(task)).join('\n'));
    const out = join(dir, 'results.jsonl');
    const args = [tasksFile, '--out', out, '--queue', redis.url, '--quiet', ...agent];
    const first = batchCommand(args, captureIo().io);
    // Every order is running (held before its effect); kill one worker that runs some of them.
    await until(
      () => ORDERS.every((id) => existsSync(join(dir, `${id}.started`))),
      30_000,
      'six orders running',
    );
    const victim = Number(readFileSync(join(dir, 'o1.started'), 'utf8'));
    const killed = ORDERS.filter(
      (id) => Number(readFileSync(join(dir, `${id}.started`), 'utf8')) === victim,
    );
    const worker = workers.find((each) => each.pid === victim)!;
    const exited = once(worker, 'exit');
    worker.kill('SIGKILL');
    await exited;
    writeFileSync(env.RELEASE, '');
    expect(await first).toBe(4);
    const latest = () =>
      new Map(
        readFileSync(out, 'utf8')
          .trim()
          .split('\n')
          .map((line) => [JSON.parse(line).id, JSON.parse(line)]),
      );
    for (const id of ORDERS) {
      expect(latest().get(id)?.status, id).toBe(killed.includes(id) ? 'in_doubt' : 'completed');
    }
    expect(latest().get('give-back')?.status).toBe('interrupted');
    // The killed worker's calls never reached their effect; no call ran twice.
    expect(ledgerLines(env.LEDGER).sort()).toEqual(
      ORDERS.filter((id) => !killed.includes(id)).map((id) => `order ${id}`),
    );

    // The operator finds those orders were not recorded and sends them back to run; approves
    // the refund.
    const listed = captureIo();
    expect(await inDoubtCommand(['--journal', redis.url, '--json'], listed.io)).toBe(0);
    const doubts = listed
      .out()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(doubts.map((doubt) => doubt.arguments.task).sort()).toEqual(killed.sort());
    for (const doubt of doubts) {
      const resolved = captureIo();
      expect(
        await inDoubtCommand(
          ['rerun', doubt.runId, doubt.callId, '--journal', redis.url],
          resolved.io,
        ),
      ).toBe(0);
    }
    const pending = captureIo();
    expect(await approvalsCommand(['--journal', redis.url, '--json'], pending.io)).toBe(0);
    const [approval] = pending
      .out()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(
      await approvalsCommand(
        ['approve', approval.runId, approval.callId, '--journal', redis.url],
        captureIo().io,
      ),
    ).toBe(0);

    // The batch again: the waiting tasks go on, on the live workers, and finish.
    expect(await batchCommand(args, captureIo().io)).toBe(0);
    for (const id of [...ORDERS, 'give-back']) {
      expect(latest().get(id)?.status, id).toBe('completed');
    }
    expect(ledgerLines(env.LEDGER).sort()).toEqual(
      [...ORDERS.map((id) => `order ${id}`), 'refund give-back'].sort(),
    );
  }, 120_000);
});
