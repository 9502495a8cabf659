import { once } from 'node:events';
import { startQueueWorker } from '../queue/queue-worker.js';
import { type CommandIo, processIo } from './command-io.js';
import {
  type CommandSpec,
  commandHelp,
  integerOption,
  parseCommandLine,
  stringOption,
} from './command-line.js';
import { EXIT, UsageError } from './exit-codes.js';
import { loadTools } from './load-tools.js';
import { processStop } from './process-stop.js';

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
  },
  notes: `A call whose worker dies mid-call runs again on another worker only when its tool is
read-only or idempotent; any other yields executor_error and never runs twice. On SIGINT or
SIGTERM the worker stops taking calls and finishes the running ones.`,
};

/** `switchyard worker`: a queue worker process. Resolves with the exit code when stopped. */
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
  const worker = startQueueWorker({
    registry: await loadTools(toolsPath, io.cwd),
    connection: redis,
    ...(queue === undefined ? {} : { queue }),
    concurrency: integerOption(line, 'concurrency', 4),
    lockDurationMs: integerOption(line, 'lock-ms', 30_000, 100),
    stalledIntervalMs: integerOption(line, 'stalled-ms', 30_000, 100),
    maxReruns: integerOption(line, 'max-reruns', 2, 0),
  });
  await worker.ready;
  io.stderr.write(
    `switchyard worker ${process.pid}: taking calls from queue ${queue ?? 'switchyard'}\n`,
  );
  if (!stop.aborted) await once(stop, 'abort');
  await worker.close();
  const { completed, failed, cancelled } = worker.stats;
  io.stderr.write(
    `switchyard worker ${process.pid}: stopped after ${completed} calls (${failed} failed, ${cancelled} cancelled)\n`,
  );
  return EXIT.ok;
}
