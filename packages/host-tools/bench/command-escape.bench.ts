/**
 * How long `run_command` takes to end past its budget when the command's descendants try to
 * outlive it, with each isolation (`pid-namespace` where the host can make one, and
 * `process-group`). Every case times out: the command is `sh -c '<escape>; exec sleep 60'` with
 * `timeout_ms` = BUDGET_MS. The figure is the overshoot, the call's wall time minus the budget.
 *
 * Cases: a child that left the session (`setsid`) holding the output pipes; a double fork that
 * reparents to init and ignores SIGTERM; a daemon that closed its pipes and left the session.
 * Baseline, same run and isolation: a bare `sleep 60` that times out.
 *
 * What is left running after each run is counted (from /proc) and killed: with process groups a
 * process that left its group is out of the tool's reach, which the `left` column shows (summed
 * over the runs, warm-up included).
 *
 * Run: npm run build && npx tsx packages/host-tools/bench/command-escape.bench.ts
 *   ROUNDS (default 20) iterations per case; BUDGET_MS (default 200). About ROUNDS × 8 × BUDGET_MS.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandTools } from '@switchyard/host-tools';
import { createDispatcher, createToolRegistry } from 'switchyard';
import { Bench } from 'tinybench';

const ROUNDS = Number(process.env.ROUNDS ?? 20);
const BUDGET_MS = Number(process.env.BUDGET_MS ?? 200);

const READY = 'while [ ! -e ready ]; do sleep 0.01; done';
const CASES: Record<string, (token: string) => string> = {
  'no escape (baseline)': () => ':',
  'setsid child holding the pipes': (token) =>
    `rm -f ready; setsid sh -c ': > ready; exec sleep ${token}' & ${READY}`,
  'double fork ignoring SIGTERM': (token) =>
    `rm -f ready; ( sh -c 'trap "" TERM; : > ready; exec sleep ${token}' & ) ; ${READY}`,
  'daemon that closed its pipes': (token) =>
    `rm -f ready; setsid sh -c 'exec </dev/null >/dev/null 2>&1; : > ready; exec sleep ${token}' & ${READY}`,
};

/** Live host processes whose command line holds `token` (zombies are dead); killed, and counted. */
function killLeftovers(token: string): number {
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(token)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2))) continue;
      process.kill(Number(entry), 'SIGKILL');
      count += 1;
    } catch {
      // Gone meanwhile.
    }
  }
  return count;
}

const root = mkdtempSync(join(tmpdir(), 'switchyard-escape-bench-'));
const rows: Record<string, string | number>[] = [];
let sequence = 0;
for (const isolation of ['pid-namespace', 'process-group'] as const) {
  const commands = commandTools({ cwd: root, isolation });
  const available = await commands.isolation().then(
    () => true,
    (error: Error) => {
      console.log(`${isolation}: not available here (${error.message})`);
      return false;
    },
  );
  if (!available) continue;
  const dispatcher = createDispatcher({ registry: createToolRegistry(commands.tools) });
  const bench = new Bench({ iterations: ROUNDS, time: 0, warmupIterations: 1, warmupTime: 0 });
  const left = new Map<string, number>();
  for (const [name, escapeLine] of Object.entries(CASES)) {
    bench.add(name, async () => {
      sequence += 1;
      const token = `61.${process.pid}${sequence}`;
      const line = `${escapeLine(token)}; exec sleep ${token}`;
      const result = await dispatcher.dispatch({
        id: `c${sequence}`,
        name: 'run_command',
        arguments: { argv: ['sh', '-c', line], timeout_ms: BUDGET_MS },
      });
      const status = (result.result as { status?: string } | undefined)?.status;
      if (status !== 'timed_out') throw new Error(`${name}: ended ${status}, not timed_out`);
      left.set(name, (left.get(name) ?? 0) + killLeftovers(token));
    });
  }
  await bench.run();
  for (const task of bench.tasks) {
    const latency = task.result?.state === 'completed' ? task.result.latency : undefined;
    if (latency === undefined) throw new Error(`${task.name}: ${task.result?.state}`);
    rows.push({
      isolation,
      case: task.name,
      'p50 over budget ms': (latency.p50 ?? Number.NaN) - BUDGET_MS,
      'p99 over budget ms': (latency.p99 ?? Number.NaN) - BUDGET_MS,
      'max over budget ms': latency.max - BUDGET_MS,
      'left, all runs': String(left.get(task.name) ?? 0),
    });
  }
  await commands.close();
}
rmSync(root, { recursive: true, force: true });
const format = (value: string | number) => (typeof value === 'number' ? value.toFixed(1) : value);
console.log(`budget ${BUDGET_MS} ms, ${ROUNDS} rounds per case`);
console.table(
  rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, format(v)]))),
);
