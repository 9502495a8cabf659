import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type ApprovalOptions, createFileJournalStore } from 'switchyard/journal';
import { DEFAULT_INTERRUPT_GRACE_MS, DEFAULT_MAX_CONCURRENT_TOOLS } from 'switchyard/streams';
import { earlierResults, ResultFile } from './batch-output.js';
import { BatchProgress } from './batch-progress.js';
import { BATCH_SPEC } from './batch-spec.js';
import { formatBatchSummary, summarizeBatch } from './batch-summary.js';
import { readTasks } from './batch-tasks.js';
import { type CommandIo, processIo } from './command-io.js';
import {
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
import { setUpTools } from './tool-setup.js';
import { withCallSlots } from './with-call-slots.js';

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
