/**
 * The CLI end to end, in fresh processes as users run it: `switchyard run --json` over batch files
 * of 100k and 400k calls (10 `add` calls a line, output to a file), against a floor that only
 * reads, parses and writes the same lines (`support/cli-floor.mjs`). The marginal rate (the extra
 * 300k calls over the extra time) leaves out start-up, which both sides pay once. Then
 * `switchyard --version` in fresh processes, against `node -e 0`.
 *
 * Rounds are interleaved (each round runs every case once, floor first) and each run is compared
 * with the floor of its own round, so a neighbour's burst on a shared machine weighs on both sides
 * of a ratio; the verdict is the median over rounds, with the worst round shown. With GNU time
 * installed each run's CPU time (user + system) is measured too: wall time counts the neighbours,
 * CPU time only the program.
 * Targets: ≥ 250k calls/s and within 1.5× of the floor (400k calls); `--version` ≤ 100 ms.
 *
 * Run: npm run bench:one bench/cli-throughput.bench.ts   (ROUNDS=n sets the rounds, default 5)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import { meanMs, median } from './support/report.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CLI = join(ROOT, 'packages/cli/dist/main.js');
const FLOOR = join(ROOT, 'bench/support/cli-floor.mjs');
// The built-in tools have no `add`; this module brings it (loaded once, at start-up).
const ADD_TOOLS = join(ROOT, 'bench/support/add-tools.mjs');
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const SIZES = [100_000, 400_000] as const;
const PER_LINE = 10;

const dir = mkdtempSync(join(tmpdir(), 'switchyard-cli-bench-'));
const output = join(dir, 'out.jsonl');

function batchFile(calls: number): string {
  const lines: string[] = [];
  for (let line = 0; line < calls / PER_LINE; line += 1) {
    const turn = Array.from({ length: PER_LINE }, (_, index) => ({
      id: `c${line}_${index}`,
      name: 'add',
      arguments: { a: line, b: index },
    }));
    lines.push(JSON.stringify(turn));
  }
  const path = join(dir, `calls-${calls}.jsonl`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const cpuFile = join(dir, 'cpu.txt');

/** One run's wall and CPU time in ms (CPU NaN without GNU time). */
interface Run {
  readonly wallMs: number;
  readonly cpuMs: number;
}

/** Runs a node script with its stdout in the output file. */
function node(args: readonly string[]): Run {
  const command = TIME === undefined ? [] : [TIME, '-f', '%U %S', '-o', cpuFile];
  const started = performance.now();
  execFileSync('sh', ['-c', `"$@" > "${output}"`, 'sh', ...command, process.execPath, ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const wallMs = performance.now() - started;
  if (TIME === undefined) return { wallMs, cpuMs: Number.NaN };
  const [user = 0, system = 0] = readFileSync(cpuFile, 'utf8').trim().split(/\s+/).map(Number);
  return { wallMs, cpuMs: (user + system) * 1000 };
}

const fixed = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : '–');

const FLOOR_CASE = 'floor: read, parse, write';
const CASES: Record<string, (file: string) => readonly string[]> = {
  [FLOOR_CASE]: (file) => [FLOOR, file],
  'switchyard run --json': (file) => [
    CLI,
    'run',
    file,
    '--json',
    '--no-workers',
    '--no-progress',
    '--tools',
    ADD_TOOLS,
  ],
  'switchyard run --json --parallel-turns 8': (file) => [
    CLI,
    'run',
    file,
    '--json',
    '--no-workers',
    '--no-progress',
    '--parallel-turns',
    '8',
    '--tools',
    ADD_TOOLS,
  ],
};

const files = new Map(SIZES.map((size) => [size, batchFile(size)]));
/** runs[case][size][round] */
const runs = new Map<string, Map<number, Run[]>>();
for (let round = 0; round < ROUNDS; round += 1) {
  for (const [name, args] of Object.entries(CASES)) {
    for (const [size, file] of files) {
      const bySize = runs.get(name) ?? new Map<number, Run[]>();
      runs.set(name, bySize);
      bySize.set(size, [...(bySize.get(size) ?? []), node(args(file))]);
    }
  }
}

const runsOf = (name: string, size: number) => runs.get(name)?.get(size) ?? [];
/** Per round, a figure of the case over the same figure of the floor in that round. */
function ratios(name: string, pick: (runs: Map<number, Run[]>, round: number) => number): number[] {
  const own = runs.get(name) as Map<number, Run[]>;
  const floor = runs.get(FLOOR_CASE) as Map<number, Run[]>;
  return Array.from({ length: ROUNDS }, (_, round) => pick(own, round) / pick(floor, round));
}
const at = (bySize: Map<number, Run[]>, size: number, round: number) =>
  bySize.get(size)?.[round] as Run;

const rows = [];
for (const name of Object.keys(CASES)) {
  for (const size of SIZES) {
    const wall = median(runsOf(name, size).map((run) => run.wallMs));
    const cpu = median(runsOf(name, size).map((run) => run.cpuMs));
    const wallRatios = ratios(name, (own, round) => at(own, size, round).wallMs);
    const cpuRatios = ratios(name, (own, round) => at(own, size, round).cpuMs);
    rows.push({
      case: `${name} (${size / 1000}k calls)`,
      'wall (ms)': fixed(wall, 0),
      'calls/s': fixed((size * 1000) / wall, 0),
      'x floor (median)': fixed(median(wallRatios)),
      'x floor (worst)': fixed(Math.max(...wallRatios)),
      'CPU (ms)': fixed(cpu, 0),
      'CPU x floor (median)': fixed(median(cpuRatios)),
      'CPU x floor (worst)': fixed(Math.max(...cpuRatios)),
    });
  }
}
console.log(`\nCLI throughput (fresh processes), ${ROUNDS} interleaved rounds, medians`);
console.table(rows);

/** Extra calls over extra time between the two sizes, in one round. */
function marginalRate(bySize: Map<number, Run[]>, round: number, key: keyof Run): number {
  const [small, large] = SIZES;
  const extra = at(bySize, large, round)[key] - at(bySize, small, round)[key];
  return ((large - small) * 1000) / extra;
}
const marginal = Object.keys(CASES).map((name) => {
  const bySize = runs.get(name) as Map<number, Run[]>;
  const rounds = Array.from({ length: ROUNDS }, (_, round) => round);
  // A rate's ratio to the floor is inverted: the floor's rate over ours.
  const slower = (key: keyof Run) =>
    rounds.map(
      (round) =>
        marginalRate(runs.get(FLOOR_CASE) as Map<number, Run[]>, round, key) /
        marginalRate(bySize, round, key),
    );
  return {
    case: name,
    'marginal calls/s': fixed(
      median(rounds.map((round) => marginalRate(bySize, round, 'wallMs'))),
      0,
    ),
    'x floor (median)': fixed(median(slower('wallMs'))),
    'marginal calls per CPU s': fixed(
      median(rounds.map((round) => marginalRate(bySize, round, 'cpuMs'))),
      0,
    ),
    'CPU x floor (median)': fixed(median(slower('cpuMs'))),
  };
});
console.log('\nMarginal rate, 400k − 100k calls (start-up left out), medians over rounds');
console.table(marginal);

const [, LARGE] = SIZES;
for (const name of Object.keys(CASES).filter((name) => name !== FLOOR_CASE)) {
  const rate = (LARGE * 1000) / median(runsOf(name, LARGE).map((run) => run.wallMs));
  const wallRatio = median(ratios(name, (own, round) => at(own, LARGE, round).wallMs));
  const cpuRatio = median(ratios(name, (own, round) => at(own, LARGE, round).cpuMs));
  const verdict = rate >= 250_000 && wallRatio <= 1.5 ? 'met' : 'NOT met';
  console.log(
    `${name}, 400k calls: ${fixed(rate, 0)} calls/s, ${fixed(wallRatio)}× the floor's wall time, ${fixed(cpuRatio)}× its CPU time (medians of ${ROUNDS} rounds) — target ≥ 250k calls/s and ≤ 1.5×: ${verdict}`,
  );
}

const startup = new Bench({
  name: '--version in fresh processes',
  time: 0,
  iterations: Math.max(5, ROUNDS * 3),
  warmup: false,
});
startup
  .add('node -e 0 (baseline)', () => {
    execFileSync(process.execPath, ['-e', '0']);
  })
  .add('switchyard --version', () => {
    execFileSync(process.execPath, [CLI, '--version']);
  });
await startup.run();
const base = meanMs(startup, 'node -e 0 (baseline)');
const version = meanMs(startup, 'switchyard --version');
console.log(`\n${startup.name}`);
console.table([
  { case: 'node -e 0 (baseline)', 'mean (ms)': base.toFixed(1) },
  {
    case: 'switchyard --version',
    'mean (ms)': version.toFixed(1),
    '+ over node (ms)': (version - base).toFixed(1),
  },
]);
rmSync(dir, { recursive: true, force: true });
