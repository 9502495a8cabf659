import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { startQueueWorker } from '@switchyard/queue';
import { type CommandIo, processIo } from './command-io.js';
import {
  type CommandSpec,
  commandHelp,
  integerOption,
  parseCommandLine,
  stringOption,
} from './command-line.js';
import { UsageError } from './errors.js';
import { EXIT } from './exit-codes.js';
import { loadTools } from './load-tools.js';
import { processStop } from './process-stop.js';
import { redisReporter } from './redis-reporter.js';

/** How long past the grace limit the hand-over of cut-off jobs may take before the worker exits. */
const CLOSE_BACKSTOP_MS = 10_000;

const WORKER_SPEC: CommandSpec = {
  name: 'worker',
  usage: '--tools <module> --redis <url> [options]',
  summary:
    'run the tools of a module for dispatchers that send them to a queue (switchyard/queue), until SIGINT or SIGTERM',
  options: {
    tools: {
      type: 'string',
      value: '<module>',
      description: 'the tools to run (as for `run --tools`)',
    },
    redis: {
      type: 'string',
      value: '<url>',
      description: 'redis://[user:password@]host:port[/db]',
    },
    queue: {
      type: 'string',
      value: '<name>',
      description: 'the queue to take calls from (default switchyard)',
    },
    concurrency: {
      type: 'string',
      value: '<n>',
      description: 'calls at once per safety class: re-runnable and run-once (default 4)',
    },
    'lock-ms': {
      type: 'string',
      value: '<ms>',
      description: "a job's lock; a dead worker is noticed after about this (default 30000)",
    },
    'stalled-ms': {
      type: 'string',
      value: '<ms>',
      description: 'how often dead workers are looked for (default 30000)',
    },
    'max-reruns': {
      type: 'string',
      value: '<n>',
      description: 're-runs of a read-only or idempotent call whose worker died (default 2)',
    },
    'grace-ms': {
      type: 'string',
      value: '<ms>',
      description:
        'on SIGINT or SIGTERM, how long running calls may finish before they are cut off (default 30000)',
    },
  },
  notes: `While Redis cannot be reached, the worker says why on stderr and keeps retrying; the first
SIGINT or SIGTERM stops it at once (exit 1).

A call whose worker dies mid-call runs again on another worker only when its tool is
read-only or idempotent; any other yields executor_error and never runs twice. On SIGINT or
SIGTERM the worker stops taking calls and lets the running ones finish for up to --grace-ms;
then it cuts them off: a read-only or idempotent call goes back to the queue for another worker,
any other yields executor_error (it is never run twice), and the worker exits.`,
};

/**
 * `switchyard worker`: a queue worker process. Resolves with the exit code when stopped: 0, or 1
 * when stopped before Redis ever answered (each connection error is written to stderr as it
 * changes; the connections retry until then) or when Redis did not confirm the hand-over.
 */
export async function workerCommand(
  args: string[],
  io: CommandIo = processIo(),
  stop: AbortSignal = processStop(),
): Promise<number> {
  const line = parseCommandLine(WORKER_SPEC, args);
  if (line === null) {
    io.stdout.write(commandHelp(WORKER_SPEC));
    return EXIT.ok;
  }
  if (line.positionals.length > 0) {
    throw new UsageError(
      `switchyard worker: unexpected argument ${JSON.stringify(line.positionals[0])}`,
    );
  }
  const toolsPath = stringOption(line, 'tools');
  const redis = stringOption(line, 'redis') ?? io.env.REDIS_URL;
  if (toolsPath === undefined)
    throw new UsageError('switchyard worker: --tools <module> is required');
  if (redis === undefined)
    throw new UsageError('switchyard worker: --redis <url> (or REDIS_URL) is required');
  const queue = stringOption(line, 'queue');
  const graceMs = integerOption(line, 'grace-ms', 30_000, 0);
  const who = `switchyard worker ${process.pid}`;
  const redisStatus = redisReporter(io.stderr, { who, url: redis });
  const worker = startQueueWorker({
    registry: await loadTools(toolsPath, io.cwd),
    connection: redis,
    ...(queue === undefined ? {} : { queue }),
    concurrency: integerOption(line, 'concurrency', 4),
    lockDurationMs: integerOption(line, 'lock-ms', 30_000, 100),
    stalledIntervalMs: integerOption(line, 'stalled-ms', 30_000, 100),
    maxReruns: integerOption(line, 'max-reruns', 2, 0),
    shutdownGraceMs: graceMs,
    onError: redisStatus.onError,
  });
  const stopped = stop.aborted ? Promise.resolve() : once(stop, 'abort');
  const connected = await Promise.race([worker.ready.then(() => true), stopped.then(() => false)]);
  if (!connected) {
    io.stderr.write(`${who}: stopped before Redis answered\n`);
    await worker.close();
    return EXIT.failures;
  }
  redisStatus.connected();
  io.stderr.write(`${who}: taking calls from queue ${queue ?? 'switchyard'}\n`);
  await stopped;
  io.stderr.write(`${who}: stopping; running calls have ${graceMs} ms to finish\n`);
  // Handing cut-off jobs on needs Redis; should it be gone, exit anyway: the jobs' locks lapse and
  // the stalled-job check of the other workers takes over (a re-run only when that is safe).
  const backstop = new AbortController();
  const closed = await Promise.race([
    worker.close().then(() => true),
    delay(graceMs + CLOSE_BACKSTOP_MS, false, { signal: backstop.signal }),
  ]);
  backstop.abort();
  if (!closed) {
    io.stderr.write(
      `${who}: Redis did not confirm the hand-over within ${CLOSE_BACKSTOP_MS} ms; exiting anyway\n`,
    );
    return EXIT.failures;
  }
  const { completed, failed, cancelled, handedBack, cutOff } = worker.stats;
  io.stderr.write(
    `${who}: stopped after ${completed} calls (${failed} failed, ${cancelled} cancelled, ${handedBack} handed back to the queue, ${cutOff} cut off)\n`,
  );
  return EXIT.ok;
}
