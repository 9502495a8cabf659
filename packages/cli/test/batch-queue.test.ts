// `switchyard batch --queue`: whole tasks run on `batch --worker` processes through a real Redis,
// and a second run of the same batch collects results without running any task again.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedisServer } from '../../../test/support/redis-server.js';
import { tempDir } from '../../../test/support/temp-dir.js';
import { ledgerLines, saidOnStderr } from '../../queue/test/worker-processes.js';
import { batchCommand } from '../src/batch-command.js';
import { captureIo } from './cli-io.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const FIXTURES = join(ROOT, 'test/fixtures');
const TASKS = ['t1', 't2', 't3', 't4'];
const dir = tempDir('switchyard-batch-queue-');
const ledger = join(dir, 'ledger.txt');
const model = [
  '--tools',
  join(FIXTURES, 'ledger-tools.ts'),
  '--model-module',
  join(FIXTURES, 'ledger-model.ts'),
];
let redis: RedisServer;
let worker: ChildProcess;

beforeAll(async () => {
  redis = await startRedisServer();
  worker = spawn(
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
      join(dir, 'journal'),
      ...model,
    ],
    {
      cwd: ROOT,
      env: { ...process.env, LEDGER: ledger, HANG_DIR: dir },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  await saidOnStderr(worker, 'taking tasks');
}, 60_000);

afterAll(async () => {
  if (worker.exitCode === null) {
    const exited = once(worker, 'exit');
    worker.kill('SIGTERM');
    await exited;
  }
  await redis?.stop();
}, 30_000);

describe('switchyard batch --queue', () => {
  it('runs every task on a worker process, and a re-run runs none again', async () => {
    const tasksFile = join(dir, 'tasks.jsonl');
    writeFileSync(
      tasksFile,
      TASKS.map((id) => JSON.stringify({ id, task: `bill ${id}` })).join('\n'),
    );
    const out = join(dir, 'results.jsonl');
    const args = [
      'batch',
      tasksFile,
      '--out',
      out,
      '--queue',
      redis.url,
      '--quiet',
      ...model,
    ].slice(1);
    const first = captureIo();
    expect(await batchCommand(args, first.io)).toBe(0);
    const results = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text));
    expect(results.map((result) => result.id).sort()).toEqual(TASKS);
    expect(results.every((result) => result.status === 'completed')).toBe(true);
    // Each task charged, checked and charged slowly once, on the worker.
    expect(ledgerLines(ledger).sort()).toEqual(
      TASKS.flatMap((id) => [`charge ${id}`, `charge_slowly ${id}`, `checkpoint ${id}`]).sort(),
    );
    // Resume: finished tasks are skipped; forgetting the result file finds the earlier jobs.
    writeFileSync(out, '');
    const second = captureIo();
    expect(await batchCommand(args, second.io)).toBe(0);
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(TASKS.length);
    expect(ledgerLines(ledger)).toHaveLength(TASKS.length * 3);
  });
});
