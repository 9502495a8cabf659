// `switchyard worker` and `batch --queue` while Redis cannot be reached: they say why within
// seconds, keep retrying, and stop on the first signal. Real processes, a real redis-server that
// is down (its port known) and comes up when a test starts it.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedisServer } from '../../../test/support/redis-server.js';
import { tempDir } from '../../../test/support/temp-dir.js';
import { saidOnStderr } from '../../queue/test/worker-processes.js';
import { EXIT } from '../src/exit-codes.js';
import { shownRedisUrl } from '../src/redis-reporter.js';
import { workerCommand } from '../src/worker-command.js';
import { captureIo } from './cli-io.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const FIXTURES = join(ROOT, 'test/fixtures');
const MODEL = [
  '--tools',
  join(FIXTURES, 'ledger-tools.ts'),
  '--model-module',
  join(FIXTURES, 'ledger-model.ts'),
];

let redis: RedisServer;
const started: ChildProcess[] = [];
beforeAll(async () => {
  redis = await startRedisServer();
  await redis.stop();
}, 30_000);
afterAll(async () => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
  await redis.stop();
});

function cli(args: string[]): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/main.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, LEDGER: join(tempDir('switchyard-ledger-'), 'ledger.txt') },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  started.push(child);
  return child;
}

/** The exit code (or signal) once the child is gone. */
async function exitOf(child: ChildProcess): Promise<number | string | null> {
  if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
  return child.exitCode ?? child.signalCode;
}

/** A `switchyard worker` process once it has said that Redis cannot be reached. */
async function workerWaitingForRedis(): Promise<ChildProcess> {
  const worker = cli(['worker', '--tools', join(FIXTURES, 'shout-tools.ts'), '--redis', redis.url]);
  await saidOnStderr(worker, `cannot reach Redis at ${redis.url}`);
  return worker;
}

describe('an unreachable Redis', () => {
  it('is named by switchyard worker, which stops on the first SIGTERM', async () => {
    const worker = await workerWaitingForRedis();
    const said = saidOnStderr(worker, 'stopped before Redis answered');
    worker.kill('SIGTERM');
    await said;
    expect(await exitOf(worker)).toBe(EXIT.failures);
  }, 60_000);

  it('is retried by switchyard worker until it answers', async () => {
    const worker = await workerWaitingForRedis();
    const connected = saidOnStderr(worker, 'taking calls');
    await redis.start();
    await connected;
    worker.kill('SIGINT');
    expect(await exitOf(worker)).toBe(EXIT.ok);
    await redis.stop();
  }, 60_000);

  it('is named by batch --queue and batch --worker, which stop on the first signal', async () => {
    const tasks = join(tempDir('switchyard-batch-'), 'tasks.jsonl');
    writeFileSync(tasks, '{"id":"t1","task":"bill t1"}\n');
    const producer = cli(['batch', tasks, '--queue', redis.url, '--quiet', ...MODEL]);
    const worker = cli([
      'batch',
      '--worker',
      '--queue',
      redis.url,
      '--journal',
      tempDir('switchyard-journal-'),
      ...MODEL,
    ]);
    await Promise.all([
      saidOnStderr(producer, 'switchyard batch: cannot reach Redis'),
      saidOnStderr(worker, 'cannot reach Redis'),
    ]);
    producer.kill('SIGINT');
    worker.kill('SIGTERM');
    expect(await exitOf(producer)).toBe(EXIT.interrupted);
    expect(await exitOf(worker)).toBe(EXIT.ok);
  }, 60_000);

  it('is reported in process, with any password hidden', async () => {
    const { io, err } = captureIo();
    const stop = new AbortController();
    const done = workerCommand(
      ['--tools', join(FIXTURES, 'shout-tools.ts'), '--redis', redis.url],
      { ...io, cwd: ROOT },
      stop.signal,
    );
    while (!err().includes('cannot reach Redis')) await new Promise((r) => setTimeout(r, 20));
    stop.abort();
    expect(await done).toBe(EXIT.failures);
    expect(err().match(/cannot reach Redis/g)).toHaveLength(1);
    expect(shownRedisUrl('redis://user:hunter2@127.0.0.1:6379/0')).toBe(
      'redis://user:***@127.0.0.1:6379/0',
    );
  });
});
