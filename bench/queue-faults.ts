/**
 * Faults soak for switchyard/queue (not run in CI): 3 `switchyard worker` processes take 10 000
 * calls (half a read-only tool, half a side effect that appends to a ledger file) while one worker
 * is killed with SIGKILL every few seconds and replaced, and Redis is restarted (empty: no
 * persistence) halfway. Checks: one result per call, none lost, no side effect run twice, and
 * every side effect reported ok ran exactly once.
 *
 * Run: npm run build && npx tsx bench/queue-faults.ts [calls] [kill-every-ms]
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  type Running,
  startRedisServer,
  startSwitchyardWorker,
} from './support/queue-processes.js';
import { tools } from './support/queue-tools.mjs';
import { createDispatcher, createToolRegistry, type ToolCallResult } from './support/switchyard.js';
import { createQueueExecutor } from './support/switchyard-queue.js';

const CALLS = Number(process.argv[2] ?? 10_000);
const KILL_EVERY_MS = Number(process.argv[3] ?? 3000);
const IN_FLIGHT = 200;
const ledger = join(mkdtempSync(join(tmpdir(), 'switchyard-queue-faults-')), 'ledger.txt');

const redis = await startRedisServer();
const workerOptions = {
  concurrency: 8,
  env: { LEDGER: ledger },
  extra: ['--lock-ms', '1000', '--stalled-ms', '500'],
};
const workers: Running[] = await Promise.all(
  [0, 1, 2].map(() => startSwitchyardWorker(redis.url, workerOptions)),
);
const queue = createQueueExecutor({ connection: redis.url, checkIntervalMs: 1000 });
const dispatcher = createDispatcher({
  registry: createToolRegistry(tools),
  executors: [queue.executor],
});

let kills = 0;
let restarted = false;
let stopping = false;
const killer = (async () => {
  while (!stopping) {
    await new Promise((resolve) => setTimeout(resolve, KILL_EVERY_MS));
    if (stopping) break;
    const victim = workers.splice(Math.floor(Math.random() * workers.length), 1)[0];
    await victim?.kill('SIGKILL');
    kills += 1;
    workers.push(await startSwitchyardWorker(redis.url, workerOptions));
  }
})();

const results = new Map<string, ToolCallResult>();
let duplicates = 0;
let next = 0;
const started = performance.now();
async function lane(): Promise<void> {
  while (next < CALLS) {
    const index = next++;
    const id = `k${index}`;
    const call =
      index % 2 === 0
        ? { id, name: 'charge', arguments: { key: id, ms: index % 20 } }
        : { id, name: 'read', arguments: { key: id, ms: index % 20 } };
    const result = await dispatcher.dispatch(call);
    if (results.has(id)) duplicates += 1;
    results.set(id, result);
    if (!restarted && results.size >= CALLS / 2) {
      restarted = true;
      await redis.stop();
      await redis.start();
    }
  }
}
await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
const seconds = (performance.now() - started) / 1000;
stopping = true;
await killer;

const runs = new Map<string, number>();
for (const line of readFileSync(ledger, 'utf8').split('\n')) {
  const key = line.split(' ')[1];
  if (key !== undefined) runs.set(key, (runs.get(key) ?? 0) + 1);
}
const byStatus = new Map<string, number>();
let chargedTwice = 0;
let okWithoutOneRun = 0;
for (const [id, result] of results) {
  const label = `${result.toolName} ${result.status}${result.error?.includes('vanished') ? ' (lost in the restart)' : result.error?.includes('stopped mid-call') ? ' (worker killed)' : ''}`;
  byStatus.set(label, (byStatus.get(label) ?? 0) + 1);
  if (result.toolName !== 'charge') continue;
  if ((runs.get(id) ?? 0) > 1) chargedTwice += 1;
  if (result.ok && runs.get(id) !== 1) okWithoutOneRun += 1;
}
console.log(
  `${CALLS} calls in ${seconds.toFixed(1)} s on 3 workers (${kills} killed with SIGKILL, Redis restarted once), load average ${loadavg()[0]?.toFixed(1)}`,
);
console.table([...byStatus].sort().map(([outcome, count]) => ({ outcome, count })));
const lost = CALLS - results.size;
console.log(
  `results: ${results.size} (duplicates ${duplicates}), lost: ${lost}, side effects run twice: ${chargedTwice}, ok side effects without exactly one run: ${okWithoutOneRun}`,
);
console.log(`queue executor stats: ${JSON.stringify(queue.stats)}`);

await queue.close();
await Promise.all(workers.map((worker) => worker.kill('SIGKILL')));
await redis.stop();
process.exitCode =
  lost === 0 && duplicates === 0 && chargedTwice === 0 && okWithoutOneRun === 0 ? 0 : 1;
