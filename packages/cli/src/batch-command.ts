import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_MAX_CONCURRENT_TOOLS } from 'switchyard/streams';
import { finishedTaskIds, ResultFile } from './batch-output.js';
import { BatchProgress } from './batch-progress.js';
import { formatBatchSummary, summarizeBatch } from './batch-summary.js';
import { readTasks } from './batch-tasks.js';
import { MODEL_OPTIONS } from './choose-model.js';
import { type CommandIo, processIo } from './command-io.js';
import {
  type CommandSpec,
  commandHelp,
  flagOption,
  integerOption,
  numberOption,
  parseCommandLine,
  stringOption,
} from './command-line.js';
import { EXIT, UsageError } from './exit-codes.js';
import { createModelLimiter } from './model-limiter.js';
import { processStop } from './process-stop.js';
import { runTasksOnQueue, runTaskWorker } from './queue-tasks.js';
import { runTasks } from './run-tasks.js';
import { taskModels } from './task-models.js';
import { succeeded, type TaskOutcome } from './task-outcome.js';
import { setUpTools, TOOL_OPTIONS } from './tool-setup.js';
import { withCallSlots } from './with-call-slots.js';

/** `switchyard batch`'s command line. */
export const BATCH_SPEC: CommandSpec = {
  name: 'batch',
  usage: '<tasks.jsonl | -> [options]',
  summary:
    'Run an agent on every task of a JSONL file ({ id, task, system?, history?, metadata? } a line),\nseveral at once, one result line per task. Run it again with the same --out to resume: finished\ntasks are skipped, and a cut-off task goes on without re-running the tool calls it completed.',
  options: {
    out: {
      type: 'string',
      short: 'o',
      value: '<file>',
      description: 'append result lines here (needed to resume); default stdout',
    },
    journal: {
      type: 'string',
      value: '<dir>',
      description: "each task's resume journal (default <out>.journal)",
    },
    sessions: { type: 'string', value: '<n>', description: 'agent runs at once (default 4)' },
    'max-tool-calls': {
      type: 'string',
      value: '<n>',
      description: 'tool calls in flight across all sessions (default 16)',
    },
    rpm: { type: 'string', value: '<n>', description: 'model requests per minute, at most' },
    tpm: { type: 'string', value: '<n>', description: 'model tokens per minute, at most' },
    'price-in': {
      type: 'string',
      value: '<usd>',
      description: 'USD per million input tokens (the summary shows the cost)',
    },
    'price-out': { type: 'string', value: '<usd>', description: 'USD per million output tokens' },
    'model-module': {
      type: 'string',
      value: '<module>',
      description:
        'your model: a module exporting a ModelClient, or a function (task) => ModelClient',
    },
    ...MODEL_OPTIONS,
    json: { type: 'boolean', description: 'print the summary as one JSON object on stdout' },
    'allow-failures': { type: 'boolean', description: 'exit 0 even when some tasks failed' },
    quiet: { type: 'boolean', short: 'q', description: 'no progress on stderr' },
    queue: {
      type: 'string',
      value: '<redis-url>',
      description: 'send the tasks to `batch --worker` processes through Redis (docs/queue.md)',
    },
    worker: {
      type: 'boolean',
      description:
        'with --queue: run queued tasks (no file) until SIGINT/SIGTERM; --journal on shared storage',
    },
    ...TOOL_OPTIONS,
  },
  notes: `Result line: {"id","status","text","turns","toolCalls","failedToolCalls","usage","latencyMs",
"error","resumed","metadata"}. Receipts (--audit) are written one log per task id.

Exit codes: 0 every task succeeded · 1 some failed (0 with --allow-failures) · 2 usage ·
3 unreadable file or lines · 130 interrupted (run again to resume).`,
};

/**
 * `switchyard batch <tasks.jsonl>`: agent runs at scale, resumable. Resolves to the exit code.
 *
 * @throws UsageError for a bad command line; InvalidOptionError for a bad provider; InputError
 *   for an unreadable file or module.
 */
export async function batchCommand(args: string[], io: CommandIo = processIo()): Promise<number> {
  const line = parseCommandLine(BATCH_SPEC, args);
  if (line === null) {
    io.stdout.write(commandHelp(BATCH_SPEC));
    return EXIT.ok;
  }
  const [file, ...extra] = line.positionals;
  const queue = stringOption(line, 'queue');
  const worker = flagOption(line, 'worker');
  if (worker && (queue === undefined || file !== undefined || line.values.journal === undefined)) {
    throw new UsageError(
      'switchyard batch --worker takes --queue <redis-url> and --journal <dir>, no file',
    );
  }
  if (!worker && (file === undefined || extra.length > 0)) {
    throw new UsageError('switchyard batch takes one tasks file (or - for stdin)');
  }
  const sessions = integerOption(line, 'sessions', 4);
  const maxToolCalls = integerOption(line, 'max-tool-calls', 16);
  const maxIterations = integerOption(line, 'max-iterations', 10);
  const maxConcurrentTools = integerOption(line, 'concurrency', DEFAULT_MAX_CONCURRENT_TOOLS);
  const rpm = numberOption(line, 'rpm');
  const tpm = numberOption(line, 'tpm');
  const priceIn = numberOption(line, 'price-in');
  const priceOut = numberOption(line, 'price-out');
  const out = stringOption(line, 'out');
  const outPath = out === undefined ? undefined : resolve(io.cwd, out);

  const started = Date.now();
  const { tasks, bad } = worker
    ? { tasks: [], bad: [] }
    : await readTasks(file === '-' ? '-' : resolve(io.cwd, file as string), io.stdin);
  for (const entry of bad) io.stderr.write(`switchyard batch: ${entry.error}\n`);
  const finished = outPath === undefined ? new Set<string>() : finishedTaskIds(outPath);
  const pending = tasks.filter((task) => !finished.has(task.id));
  const limiter = createModelLimiter({
    ...(rpm === undefined ? {} : { requestsPerMinute: rpm }),
    ...(tpm === undefined ? {} : { tokensPerMinute: tpm }),
  });
  const modelFor = await taskModels(line, io, limiter);
  const tools = await setUpTools(line, io.cwd);
  const scratch =
    outPath === undefined && !worker ? mkdtempSync(join(tmpdir(), 'switchyard-batch-')) : undefined;
  const journalDirectory =
    scratch ?? resolve(io.cwd, stringOption(line, 'journal') ?? `${outPath}.journal`);
  const runOptions = {
    sessions,
    modelFor,
    registry: tools.registry,
    executors: tools.executors,
    layers: [...tools.layers, withCallSlots(maxToolCalls)],
    journalDirectory,
    maxIterations,
    maxConcurrentTools,
    eager: !flagOption(line, 'no-eager'),
  };
  if (worker) {
    try {
      await runTaskWorker(queue as string, runOptions, io, processStop());
    } finally {
      await tools.close();
    }
    return EXIT.ok;
  }
  const results = outPath === undefined ? undefined : new ResultFile(outPath);
  const progress = new BatchProgress(io.stderr, pending.length, flagOption(line, 'quiet'));
  const outcomes: TaskOutcome[] = [];
  const controller = new AbortController();
  const interrupt = () => controller.abort();
  process.once('SIGINT', interrupt);
  let cancelled: string[];
  try {
    const onOutcome = (outcome: TaskOutcome) => {
      outcomes.push(outcome);
      const text = `${JSON.stringify(outcome)}\n`;
      if (results === undefined) io.stdout.write(text);
      else results.write(text);
      progress.finished(outcome);
    };
    const signal = controller.signal;
    cancelled =
      queue === undefined
        ? await runTasks({ ...runOptions, tasks: pending, signal, onOutcome })
        : await runTasksOnQueue(queue, batchKey(outPath ?? journalDirectory), {
            tasks: pending,
            signal,
            onOutcome,
            err: io.stderr,
          });
  } finally {
    process.off('SIGINT', interrupt);
    progress.end();
    results?.close();
    await tools.close();
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  }
  const summary = summarizeBatch({
    outcomes,
    tasks: tasks.length,
    skipped: tasks.length - pending.length,
    interrupted: cancelled.length,
    badLines: bad.length,
    throttled: limiter.throttled,
    wallMs: Date.now() - started,
    ...(priceIn === undefined && priceOut === undefined
      ? {}
      : { prices: { inputPerMillion: priceIn ?? 0, outputPerMillion: priceOut ?? 0 } }),
  });
  if (flagOption(line, 'json')) io.stdout.write(`${JSON.stringify({ summary })}\n`);
  else io.stderr.write(formatBatchSummary(summary));
  if (cancelled.length > 0) return EXIT.interrupted;
  if (bad.length > 0) return EXIT.input;
  const failed = outcomes.some((outcome) => !succeeded(outcome));
  return failed && !flagOption(line, 'allow-failures') ? EXIT.failures : EXIT.ok;
}

/** Names a batch in its queued tasks' job ids: two batches may both have a task "line-1". */
function batchKey(path: string): string {
  return createHash('sha256').update(path).digest('hex').slice(0, 12);
}
