// The baseline worker of bench/queue.bench.ts: plain BullMQ, the same handlers, no Switchyard.
// Usage: node raw-bullmq-worker.mjs <redis-url> <queue> <concurrency>
import { Worker } from 'bullmq';
import { hash64k } from './cpu-tools.mjs';

const [url, name, concurrency] = process.argv.slice(2);
const worker = new Worker(
  name,
  async (job) => (job.name === 'hash' ? hash64k(job.data) : job.data.value),
  { connection: { url, maxRetriesPerRequest: null }, concurrency: Number(concurrency) },
);
await worker.waitUntilReady();
process.stderr.write('taking calls\n');
process.once('SIGTERM', () => worker.close().then(() => process.exit(0)));
