import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type ApprovalOptions, createFileJournalStore } from 'switchyard/journal';
import { DEFAULT_INTERRUPT_GRACE_MS, DEFAULT_MAX_CONCURRENT_TOOLS } from 'switchyard/streams';
import { earlierResults, ResultFile } from './batch-output.js';
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
import { scriptedCalls } from './demo-model.js';
import { UsageError } from './errors.js';
import { EXIT } from './exit-codes.js';
import { journalStoreOf } from './journal-store-option.js';
import { jsonText } from './json-text.js';
import { createModelLimiter } from './model-limiter.js';
import { loadPrices } from './price-table.js';
import { processStop } from './process-stop.js';
import { runTasksOnQueue, runTaskWorker } from './queue-tasks.js';
import { runTasks } from './run-tasks.js';
import { taskModels } from './task-models.js';
import { pricedOutcome, succeeded, type TaskOutcome, waitsForOperator } from './task-outcome.js';
import { setUpTools, TOOL_OPTIONS } from './tool-setup.js';
import { withCallSlots } from './with-call-slots.js';

/** `switchyard batch`'s command line. */
export const BATCH_SPEC: CommandSpec = {
  name: 'batch',
  usage: '<tasks.jsonl | -> [options]',
  summary:
    'Run an agent on every task of a JSONL file ({ id, task, system?, history?, metadata? } a line),\nseveral at once, one result line per task. Run it again with the same --out to resume: finished\ntasks are skipped, and a cut-off task goes on without re-running the tool calls it completed;\na call that may or may not have taken effect is never run again (switchyard in-doubt), and a\ntask waiting for approvals (--approvals) goes on once they are decided (switchyard approvals).',
  options: {
    out: {
      type: 'string',
      short: 'o',
      value: '<file>',
      description: 'append result lines here (needed to resume); default stdout',
    },
    journal: {
      type: 'string',
      value: '<dir | redis-url>',
      description: "each task's run journal: a directory, or Redis (default <out>.journal)",
    },
    approvals: {
      type: 'boolean',
      description:
        'calls of tools that ask for confirmation or are destructive wait for a decision\n(switchyard approvals); the task parks, the rest of the batch goes on',
    },
    'approval-ttl': {
      type: 'string',
      value: '<ms>',
      description: 'a pending approval lapses into a denial after this long (default never)',
    },
    grace: {
      type: 'string',
      value: '<ms>',
      description: `after the first Ctrl-C, how long running calls may finish (default ${DEFAULT_INTERRUPT_GRACE_MS})`,
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
      description: 'USD per million input tokens (the summary shows the cost; overrides --prices)',
    },
    'price-out': {
      type: 'string',
      value: '<usd>',
      description: 'USD per million output tokens (overrides --prices)',
    },
    prices: {
      type: 'string',
      value: '<file.json>',
      description:
        'a price table: {"model":{"inputPerMillion","outputPerMillion"},"tools":{"<name>":{"perCall"}}};\nperCall prices the calls of a tool that reported no cost of its own',
    },
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
    'lock-ms': {
      type: 'string',
      value: '<ms>',
      description:
        "--worker: a task's lock; a dead worker's task is re-run after about this (default 30000)",
    },
    'stalled-ms': {
      type: 'string',
      value: '<ms>',
      description: "--worker: how often dead workers' tasks are looked for (default 30000)",
    },
    ...TOOL_OPTIONS,
  },
  notes: `Result line: {"id","status","text","turns","toolCalls","failedToolCalls","usage",
"toolUsage","latencyMs","error","resumed","metadata","toolCost"}. "toolUsage" prices each tool
(toolUsd, modelUsd, totalUsd), "toolCost" sums them for the task. Receipts (--audit) are written one log per task id.

Result lines of tasks that wait add "pendingApprovals" or "inDoubt"; the last line of an id is its
latest. Ctrl-C once: no new task or call starts, running calls finish (--grace); twice: stop now.

Exit codes: 0 every task succeeded · 1 some failed (0 with --allow-failures) · 2 usage ·
3 unreadable file or lines · 4 some task has a call in doubt (switchyard in-doubt) · 5 some task
awaits approval (switchyard approvals) · 130 interrupted (run again to resume).`,
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
  const pricesFile = stringOption(line, 'prices');
  const prices = loadPrices({
    ...(pricesFile === undefined ? {} : { file: resolve(io.cwd, pricesFile) }),
    ...optional('inputPerMillion', numberOption(line, 'price-in')),
    ...optional('outputPerMillion', numberOption(line, 'price-out')),
  });
  const graceMs = integerOption(line, 'grace', DEFAULT_INTERRUPT_GRACE_MS, 0);
  const approvalTtl = numberOption(line, 'approval-ttl');
  const approvals: ApprovalOptions | false = flagOption(line, 'approvals')
    ? approvalTtl === undefined
      ? {}
      : { expiresInMs: approvalTtl }
    : false;
  const out = stringOption(line, 'out');
  const outPath = out === undefined ? undefined : resolve(io.cwd, out);

  const started = Date.now();
  const { tasks, bad } = worker
    ? { tasks: [], bad: [] }
    : await readTasks(file === '-' ? '-' : resolve(io.cwd, file as string), io.stdin);
  for (const entry of bad) io.stderr.write(`switchyard batch: ${entry.error}\n`);
  const earlier =
    outPath === undefined
      ? { finished: new Set<string>(), waiting: new Map<string, number>() }
      : earlierResults(outPath);
  const pending = tasks.filter((task) => !earlier.finished.has(task.id));
  const limiter = createModelLimiter({
    ...(rpm === undefined ? {} : { requestsPerMinute: rpm }),
    ...(tpm === undefined ? {} : { tokensPerMinute: tpm }),
  });
  const modelFor = await taskModels(
    line,
    io,
    limiter,
    () => tasks.length > 0 && tasks.every((task) => scriptedCalls(task.task) !== undefined),
  );
  const tools = await setUpTools(line, io.cwd);
  const scratch =
    outPath === undefined && !worker ? mkdtempSync(join(tmpdir(), 'switchyard-batch-')) : undefined;
  const journal =
    scratch === undefined
      ? (journalStoreOf(line, io.cwd) ??
        createFileJournalStore({ directory: `${outPath}.journal` }))
      : createFileJournalStore({ directory: scratch });
  // The first Ctrl-C stops starting tasks and calls and lets running calls finish; the second
  // stops at once.
  const interrupt = new AbortController();
  const controller = new AbortController();
  const runOptions = {
    sessions,
    modelFor,
    registry: tools.registry,
    executors: tools.executors,
    layers: [...tools.layers, withCallSlots(maxToolCalls)],
    journal,
    approvals,
    maxIterations,
    maxConcurrentTools,
    eager: !flagOption(line, 'no-eager'),
    graceMs,
  };
  if (worker) {
    try {
      await runTaskWorker(queue as string, runOptions, io, processStop(), {
        lockDurationMs: integerOption(line, 'lock-ms', 30_000, 100),
        stalledIntervalMs: integerOption(line, 'stalled-ms', 30_000, 100),
      });
    } finally {
      await tools.close();
      await journal.close();
    }
    return EXIT.ok;
  }
  const results = outPath === undefined ? undefined : new ResultFile(outPath);
  const progress = new BatchProgress(io.stderr, pending.length, flagOption(line, 'quiet'));
  const outcomes: TaskOutcome[] = [];
  const onSigint = () => {
    if (interrupt.signal.aborted) {
      controller.abort();
      return;
    }
    interrupt.abort();
    io.stderr.write(
      `\nswitchyard batch: stopping; running calls may finish (up to ${graceMs} ms). Ctrl-C again to stop now.\n`,
    );
  };
  process.on('SIGINT', onSigint);
  let cancelled: string[];
  try {
    const onOutcome = (unpriced: TaskOutcome) => {
      const outcome = pricedOutcome(unpriced, prices);
      outcomes.push(outcome);
      const text = `${jsonText(outcome)}\n`;
      if (results === undefined) io.stdout.write(text);
      else results.write(text);
      progress.finished(outcome);
    };
    cancelled =
      queue === undefined
        ? await runTasks({
            ...runOptions,
            tasks: pending,
            interrupt: interrupt.signal,
            signal: controller.signal,
            onOutcome,
          })
        : await runTasksOnQueue(queue, batchKey(outPath ?? scratch ?? ''), {
            tasks: pending,
            // Nothing runs here: the first Ctrl-C stops waiting, the workers go on.
            signal: interrupt.signal,
            onOutcome,
            rounds: earlier.waiting,
            err: io.stderr,
          });
  } finally {
    process.off('SIGINT', onSigint);
    progress.end();
    results?.close();
    await tools.close();
    await journal.close();
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
    prices,
  });
  if (flagOption(line, 'json')) io.stdout.write(`${JSON.stringify({ summary })}\n`);
  else io.stderr.write(formatBatchSummary(summary));
  if (cancelled.length > 0) return EXIT.interrupted;
  if (summary.inDoubt > 0) return EXIT.inDoubt;
  if (summary.awaitingApproval > 0) return EXIT.awaitingApproval;
  if (bad.length > 0) return EXIT.input;
  const failed = outcomes.some((outcome) => !succeeded(outcome) && !waitsForOperator(outcome));
  return failed && !flagOption(line, 'allow-failures') ? EXIT.failures : EXIT.ok;
}

/** `{ [key]: value }`, or nothing when the value is absent (for exact optional properties). */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return value === undefined ? {} : ({ [key]: value } as { [P in K]: V });
}

/** Names a batch in its queued tasks' job ids: two batches may both have a task "line-1". */
function batchKey(path: string): string {
  return createHash('sha256').update(path).digest('hex').slice(0, 12);
}
