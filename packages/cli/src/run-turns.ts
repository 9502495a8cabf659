import { performance } from 'node:perf_hooks';
import type { Dispatcher, ProposedCall, ToolCallResult } from 'switchyard';
import { FifoQueue } from 'switchyard/extension';
import { readBatchFile } from './batch-file.js';
import { BatchStats, type BatchSummary } from './batch-stats.js';
import { BufferedOutput } from './buffered-output.js';
import { formatFailure, formatResultLine, formatSummary } from './format-results.js';
import { ProgressBar } from './progress-bar.js';

/** Runs one planner turn and resolves to its results in planner order. */
export type TurnRunner = (
  calls: readonly ProposedCall[],
  turn: { readonly iteration: number; readonly sessionId: string },
) => Promise<readonly ToolCallResult[]>;

/** Options of `runTurns`. */
export interface RunTurnsOptions {
  /** The batch file; `-` reads `stdin`. */
  readonly file: string;
  readonly stdin?: NodeJS.ReadableStream;
  readonly dispatcher: Dispatcher;
  readonly runTurn: TurnRunner;
  readonly json: boolean;
  readonly progress: boolean;
  /** Turns dispatched at the same time (results still print in file order). Default 1. */
  readonly parallelTurns?: number;
  readonly sessionId: string;
  readonly out: NodeJS.WritableStream;
  readonly err: NodeJS.WritableStream;
}

/**
 * Dispatches every planner turn of a batch file, prints the results in planner order on `out`
 * (text, or one JSON object per line with `json`) and ends with a summary. Unreadable lines and
 * failed calls are also reported on `err` with their line numbers; a bad line is counted, never
 * fatal. Resolves to the summary.
 *
 * @throws InputError when the file cannot be opened.
 */
export async function runTurns(options: RunTurnsOptions): Promise<BatchSummary> {
  const out = new BufferedOutput(options.out);
  const stats = new BatchStats();
  const progress = new ProgressBar(options.err, options.progress);
  const started = performance.now();
  const parallelTurns = Math.max(1, options.parallelTurns ?? 1);
  // Turns started but not yet printed, oldest first.
  const window = new FifoQueue<StartedTurn>();
  let iteration = 0;
  let printed = 0;
  const printOldest = async () => {
    const oldest = window.shift()!;
    if ('error' in oldest) {
      stats.addBadLine();
      options.err.write(`switchyard run: ${oldest.error}\n`);
    } else printTurn(options, out, stats, oldest, await oldest.results);
    printed += 1;
    if (progress.active) progress.update(printed, undefined, `${stats.calls} calls`);
  };
  try {
    for await (const turns of readBatchFile(options.file, options.stdin)) {
      for (const turn of turns) {
        iteration += 1;
        window.push(
          'error' in turn
            ? turn
            : {
                line: turn.line,
                iteration,
                results: options.runTurn(turn.calls, { iteration, sessionId: options.sessionId }),
              },
        );
        if (window.size >= parallelTurns) await printOldest();
      }
    }
    while (window.size > 0) await printOldest();
  } finally {
    out.flush();
    progress.done();
  }
  const summary = stats.summary(performance.now() - started);
  options.out.write(options.json ? `${JSON.stringify({ summary })}\n` : formatSummary(summary));
  return summary;
}

/** A turn on its way, printed in file order: an unreadable line, or a turn and its results. */
type StartedTurn =
  | { readonly line: number; readonly error: string }
  | {
      readonly line: number;
      readonly iteration: number;
      readonly results: Promise<readonly ToolCallResult[]>;
    };

/** Records a finished turn in the stats and prints its results. */
function printTurn(
  options: RunTurnsOptions,
  out: BufferedOutput,
  stats: BatchStats,
  { line, iteration }: { readonly line: number; readonly iteration: number },
  results: readonly ToolCallResult[],
): void {
  stats.addTurn();
  if (!options.json) out.write(`turn ${iteration} (line ${line}): ${results.length} calls\n`);
  for (const result of results) {
    stats.addResult(result);
    if (result.executionDurationMs !== null) stats.addLatency(result.executionDurationMs);
    out.write(formatResultLine(result, line, options.json));
    if (!result.ok) options.err.write(formatFailure(result, line));
  }
}
