import { parseArgs } from 'node:util';
import type {
  BenchProgress,
  BinderBenchmarkResult,
  BinderSpec,
  ChartingLibrary,
} from '@switchyard/binder-bench';
import {
  fakeClock,
  formatBenchTable,
  loadChartingLibrary,
  parseBinderSpec,
  readBenchCases,
  runBinderBenchmark,
  writeBenchResults,
} from '@switchyard/binder-bench';
import { InvalidOptionError, MissingPeerDependencyError, SwitchyardError } from 'switchyard';
import { EXIT } from './exit-codes.js';

/** Usage of `switchyard bench binder`. */
export const BENCH_BINDER_USAGE = `switchyard bench binder — accuracy of tool-argument binders against latency budgets

Usage:
  switchyard bench binder [options]

Options:
  --data <file.jsonl>    cases { id, intent, tools, expected } (default: the bundled BFCL sample)
  --out <dir>            write results.json, accuracy-vs-budget.svg, latency-cdf.svg, report.html
  --budgets <ms,...>     the budget sweep (default 250,500,1000,2000)
  --binder <spec>        a binder to measure; repeat for several (default: lexical and two simulated)
                           lexical
                           simulated:LABEL,median=MS,p95=MS   (or ms=MS, or min=MS,max=MS)
                           openai:MODEL[,base=URL][,key=ENV_VAR][,label=NAME][,strict=true]
                             (the endpoint must take response_format json_schema)
                           anthropic:MODEL[,base=URL][,key=ENV_VAR][,label=NAME][,mode=tool]
  --concurrency <n>      cases in flight per binder and budget (default 4)
  --warmup <n>           requests per binder before measuring, not counted (default 2)
  --planner <mode>       intent (only _nl_intent) | partial (half the required arguments too)
  --seed <text>          seeds the simulated latencies (default 1)
  --fake-clock           virtual time: simulated binders in process, instant and deterministic
  --no-progress          no progress bar on the terminal
  --help

Keys come from the environment: OPENAI_API_KEY / OPENAI_BASE_URL, ANTHROPIC_API_KEY /
ANTHROPIC_BASE_URL, or the variable named by key=. Simulated binders are labelled (simulated).

Exit codes: 0 done · 1 some binder hops failed in transport (an endpoint unreachable or refusing:
the notes under the table say which) · 2 usage · 3 unreadable data, or vega / vega-lite missing for
the plots (named before the run, which goes on without them).
`;

/** Where the command writes; defaults to the process's streams and environment. */
export interface BenchBinderIo {
  readonly stdout?: NodeJS.WritableStream;
  readonly stderr?: NodeJS.WriteStream | NodeJS.WritableStream;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Loads vega and vega-lite for the plots. Default `loadChartingLibrary`. */
  readonly loadCharting?: () => Promise<ChartingLibrary>;
}

/**
 * The charting library when `--out` asks for plots, loaded before the run: a missing package is
 * named once, up front, and the run goes on without plots (undefined).
 */
async function chartingFor(
  io: BenchBinderIo,
  stderr: NonNullable<BenchBinderIo['stderr']>,
): Promise<ChartingLibrary | undefined> {
  try {
    return await (io.loadCharting ?? loadChartingLibrary)();
  } catch (error) {
    if (!MissingPeerDependencyError.isInstance(error)) throw error;
    stderr.write(
      `${error.message}\nRunning without plots: the table, results.json and report.html are still written.\n`,
    );
    return undefined;
  }
}

/** Whether a binder's hops failed in transport: its figures measure the failures, not the binder. */
function transportFailed(result: BinderBenchmarkResult): boolean {
  return result.rows.some((row) => row.statuses.transport_error > 0);
}

function count(value: string | undefined, option: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min) {
    throw new InvalidOptionError(option, `--${option} must be an integer ≥ ${min}; got ${value}`);
  }
  return parsed;
}

function budgetsOf(value: string | undefined): number[] | undefined {
  if (value === undefined) return undefined;
  const budgets = value.split(',').map((part) => Number(part.trim()));
  if (budgets.some((ms) => !Number.isFinite(ms) || ms < 1)) {
    throw new InvalidOptionError(
      'budgets',
      `--budgets must be numbers of ms ≥ 1, comma-separated; got ${value}`,
    );
  }
  return budgets;
}

/** A one-line progress bar on a terminal; nothing elsewhere. */
function progressBar(stream: BenchBinderIo['stderr'], enabled: boolean) {
  const tty =
    enabled && (stream as NodeJS.WriteStream | undefined)?.isTTY === true ? stream : undefined;
  let last = 0;
  return {
    update(progress: BenchProgress): void {
      const now = Date.now();
      if (tty === undefined || (now - last < 100 && progress.done < progress.total)) return;
      last = now;
      const filled = Math.round((progress.done / progress.total) * 24);
      tty.write(
        `\r[${'#'.repeat(filled).padEnd(24, '.')}] ${progress.done}/${progress.total}  ${progress.binder} @ ${progress.budgetMs} ms\u001b[K`,
      );
    },
    done(): void {
      tty?.write('\r\u001b[K');
    },
  };
}

/**
 * `switchyard bench binder [options]`: runs the binder latency-budget benchmark, prints the table
 * (a progress bar on a terminal meanwhile) and, with `--out`, writes the JSON results, the SVG
 * plots and an HTML report. Returns the exit code (`EXIT`): 0 done; 1 some binder hops failed in
 * transport (an endpoint unreachable, a key refused: the notes under the table say which); 2 bad
 * usage (the message names the option); 3 a data file that cannot be read or parsed, or an
 * optional package to install for the plots (named before the run, which goes on without them).
 */
export async function runBenchBinderCommand(
  args: readonly string[],
  io: BenchBinderIo = {},
): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  let progress = progressBar(stderr, false);
  try {
    const { values } = parseArgs({
      args: [...args],
      options: {
        data: { type: 'string' },
        out: { type: 'string' },
        budgets: { type: 'string' },
        binder: { type: 'string', multiple: true },
        concurrency: { type: 'string' },
        warmup: { type: 'string' },
        planner: { type: 'string' },
        seed: { type: 'string' },
        'fake-clock': { type: 'boolean', default: false },
        'no-progress': { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
    if (values.help) {
      stdout.write(BENCH_BINDER_USAGE);
      return EXIT.ok;
    }
    progress = progressBar(stderr, !values['no-progress']);
    const binders: BinderSpec[] | undefined = values.binder?.map(parseBinderSpec);
    const planner = values.planner as 'intent' | 'partial' | undefined;
    const budgetsMs = budgetsOf(values.budgets);
    const concurrency = count(values.concurrency, 'concurrency', 1);
    const warmup = count(values.warmup, 'warmup', 0);
    const charting = values.out === undefined ? undefined : await chartingFor(io, stderr);
    const result = await runBinderBenchmark({
      ...(values.data === undefined ? {} : { cases: readBenchCases(values.data) }),
      ...(binders === undefined ? {} : { binders }),
      ...(budgetsMs === undefined ? {} : { budgetsMs }),
      ...(concurrency === undefined ? {} : { concurrency }),
      ...(warmup === undefined ? {} : { warmup }),
      ...(planner === undefined ? {} : { planner }),
      ...(values.seed === undefined ? {} : { seed: values.seed }),
      ...(values['fake-clock'] ? { clock: fakeClock() } : {}),
      env: io.env ?? process.env,
      onProgress: (step) => progress.update(step),
    });
    progress.done();
    stdout.write(formatBenchTable(result));
    const failed = transportFailed(result);
    if (failed) {
      stderr.write(
        'Some binder hops failed in transport (see the notes under the table): those figures measure the failures.\n',
      );
    }
    if (values.out === undefined) {
      stdout.write('(--out DIR writes results.json, the SVG plots and report.html)\n');
      return failed ? EXIT.failures : EXIT.ok;
    }
    const written = await writeBenchResults(
      result,
      values.out,
      charting === undefined ? { plots: false } : { load: async () => charting },
    );
    stdout.write(`wrote ${written.join(', ')}\n`);
    if (failed) return EXIT.failures;
    return charting === undefined ? EXIT.input : EXIT.ok;
  } catch (error) {
    progress.done();
    const code = exitCodeOf(error);
    if (code === undefined) throw error;
    stderr.write(`${(error as Error).message}\n`);
    if (code === EXIT.usage)
      stderr.write('Run `switchyard bench binder --help` for the options.\n');
    return code;
  }
}

/** The exit code of an expected failure; undefined for a bug, which propagates. */
function exitCodeOf(error: unknown): number | undefined {
  // A data file that cannot be read or parsed, or a package to install: the input is at fault.
  if (MissingPeerDependencyError.isInstance(error)) return EXIT.input;
  if (InvalidOptionError.isInstance(error) && error.option === 'data') return EXIT.input;
  if (SwitchyardError.isInstance(error) || isUsageError(error)) return EXIT.usage;
  return undefined;
}

/** node:util parseArgs rejects unknown options, missing values and positionals with these codes. */
function isUsageError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}
