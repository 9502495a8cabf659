/**
 * The CLI end to end, in fresh processes as users run it: `switchyard run --json` over batch files
 * of 100k and 400k calls (10 `add` calls a line, output to a file), against a floor that only
 * reads, parses and writes the same lines (`support/cli-floor.mjs`). The marginal rate (the extra
 * 300k calls over the extra time) leaves out start-up, which both sides pay once. Then
 * `switchyard --version` in fresh processes, against `node -e 0`. With GNU time installed, each run's
 * CPU time is shown too (on a shared machine wall time measures the neighbours as well).
 * Targets: ≥ 250k calls/s and within 1.5× of the floor; `--version` ≤ 100 ms.
 *
 * Run: npm run bench:one bench/cli-throughput.bench.ts   (ROUNDS=n sets the runs per case, default 3)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import { meanMs } from './support/report.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CLI = join(ROOT, 'dist/cli/main.js');
const FLOOR = join(ROOT, 'bench/support/cli-floor.mjs');
// The built-in tools have no `add`; this module brings it (loaded once, at start-up).
const ADD_TOOLS = join(ROOT, 'bench/support/add-tools.mjs');
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SIZES = [100_000, 400_000];
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

// CPU time (user + system) of each run, read through GNU time when it is installed: on a shared
// machine wall time measures the neighbours as much as the program.
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const cpuFile = join(dir, 'cpu.txt');
const cpuSeconds = new Map<string, number[]>();

/** Runs a node script with its stdout in the output file; records its CPU time under `name`. */
function node(name: string, args: readonly string[]): void {
  const command = TIME === undefined ? [] : [TIME, '-f', '%U %S', '-o', cpuFile];
  execFileSync('sh', ['-c', `"$@" > "${output}"`, 'sh', ...command, process.execPath, ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (TIME === undefined) return;
  const [user = 0, system = 0] = readFileSync(cpuFile, 'utf8').trim().split(/\s+/).map(Number);
  cpuSeconds.set(name, [...(cpuSeconds.get(name) ?? []), user + system]);
}

function meanCpuMs(name: string): number {
  const runs = cpuSeconds.get(name) ?? [];
  return runs.length === 0 ? Number.NaN : (runs.reduce((a, b) => a + b, 0) / runs.length) * 1000;
}

const files = new Map(SIZES.map((size) => [size, batchFile(size)]));
const cases = new Map<string, readonly string[]>();
for (const [size, file] of files) {
  const label = `${size / 1000}k calls`;
  cases.set(`floor: read, parse, write (${label})`, [FLOOR, file]);
  cases.set(`switchyard run --json (${label})`, [
    CLI,
    'run',
    file,
    '--json',
    '--no-workers',
    '--no-progress',
    '--tools',
    ADD_TOOLS,
  ]);
  cases.set(`switchyard run --json --parallel-turns 8 (${label})`, [
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
  ]);
}

const throughput = new Bench({
  name: 'CLI throughput (fresh processes)',
  time: 0,
  iterations: ROUNDS,
  warmup: false,
});
for (const [name, args] of cases) throughput.add(name, () => node(name, args));
await throughput.run();

const rows = [];
for (const name of cases.keys()) {
  const size = SIZES.find((candidate) => name.includes(`(${candidate / 1000}k`)) as number;
  const ms = meanMs(throughput, name);
  const floorMs = meanMs(throughput, `floor: read, parse, write (${size / 1000}k calls)`);
  const floorName = `floor: read, parse, write (${size / 1000}k calls)`;
  const cpuMs = meanCpuMs(name);
  rows.push({
    case: name,
    'wall (ms)': ms.toFixed(0),
    'calls/s': ((size * 1000) / ms).toFixed(0),
    'x floor': (ms / floorMs).toFixed(2),
    'CPU (ms)': cpuMs.toFixed(0),
    'calls per CPU s': ((size * 1000) / cpuMs).toFixed(0),
    'CPU x floor': (cpuMs / meanCpuMs(floorName)).toFixed(2),
  });
}
console.log(`\n${throughput.name}, ${ROUNDS} runs each`);
console.table(rows);

const marginal = [];
for (const prefix of [
  'floor: read, parse, write',
  'switchyard run --json',
  'switchyard run --json --parallel-turns 8',
]) {
  const small = meanMs(throughput, `${prefix} (100k calls)`);
  const large = meanMs(throughput, `${prefix} (400k calls)`);
  const cpu = meanCpuMs(`${prefix} (400k calls)`) - meanCpuMs(`${prefix} (100k calls)`);
  marginal.push({
    case: prefix,
    'marginal calls/s (400k − 100k)': ((300_000 * 1000) / (large - small)).toFixed(0),
    'marginal calls per CPU s': ((300_000 * 1000) / cpu).toFixed(0),
    'start-up + first 100k (ms)': small.toFixed(0),
  });
}
const floorRate =
  (300_000 * 1000) /
  (meanMs(throughput, 'floor: read, parse, write (400k calls)') -
    meanMs(throughput, 'floor: read, parse, write (100k calls)'));
const floorCpuRate = Number(marginal[0]?.['marginal calls per CPU s']);
console.log('\nMarginal rate (start-up left out)');
console.table(
  marginal.map((row) => ({
    ...row,
    'x floor': (floorRate / Number(row['marginal calls/s (400k − 100k)'])).toFixed(2),
    'CPU x floor': (floorCpuRate / Number(row['marginal calls per CPU s'])).toFixed(2),
  })),
);

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
