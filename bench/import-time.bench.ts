/**
 * What importing Switchyard costs a fresh process: `import('switchyard')` (the package root, as
 * users import it from dist/), two subpaths and the provider packages, each against `node -e 0` measured in the
 * same run, alternating, in fresh processes. Target: the root ≤ 80 ms over `node -e 0`.
 * Besides wall time, each process reports its own CPU time (user + system, read as it ends): on a
 * shared machine wall time measures the neighbours as well.
 *
 * Run: npm run build && tsx bench/import-time.bench.ts   (ROUNDS=n, default 15)
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from './support/report.js';

const ROUNDS = Number(process.env.ROUNDS ?? 15);
const root = fileURLToPath(new URL('..', import.meta.url));

const CASES: Record<string, string> = {
  'node -e 0 (baseline)': '0',
  "import('switchyard')": "await import('switchyard')",
  "import('switchyard/middleware')": "await import('switchyard/middleware')",
  "import('switchyard/executors')": "await import('switchyard/executors')",
  "import('@switchyard/openai')": "await import('@switchyard/openai')",
  "import('@switchyard/anthropic')": "await import('@switchyard/anthropic')",
};

const REPORT_CPU = 'const cpu = process.cpuUsage(); console.log(cpu.user + cpu.system);';

function run(code: string): { wall: number; cpu: number } {
  const started = performance.now();
  const out = execFileSync(
    process.execPath,
    ['--input-type=module', '-e', `${code};${REPORT_CPU}`],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  return { wall: performance.now() - started, cpu: Number(out.trim().split('\n').at(-1)) / 1000 };
}

const samples = new Map<string, number[]>(Object.keys(CASES).map((name) => [name, []]));
const cpuSamples = new Map<string, number[]>(Object.keys(CASES).map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round += 1) {
  for (const [name, code] of Object.entries(CASES)) {
    const { wall, cpu } = run(code);
    samples.get(name)?.push(wall);
    cpuSamples.get(name)?.push(cpu);
  }
}

const baseline = median(samples.get('node -e 0 (baseline)') ?? []);
const cpuBaseline = median(cpuSamples.get('node -e 0 (baseline)') ?? []);
console.table(
  [...samples].map(([name, values]) => {
    const cpu = median(cpuSamples.get(name) ?? []);
    return {
      case: name,
      'median (ms)': median(values).toFixed(1),
      'over node -e 0 (ms)': (median(values) - baseline).toFixed(1),
      'min–max (ms)': `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`,
      'CPU (ms)': cpu.toFixed(1),
      'CPU over node -e 0 (ms)': (cpu - cpuBaseline).toFixed(1),
    };
  }),
);
const rootOver = median(samples.get("import('switchyard')") ?? []) - baseline;
const rootCpuOver = median(cpuSamples.get("import('switchyard')") ?? []) - cpuBaseline;
console.log(
  `import('switchyard') costs ${rootOver.toFixed(1)} ms over node -e 0 (${rootCpuOver.toFixed(1)} ms of CPU); target ≤ 80 ms: ${rootOver <= 80 ? 'met' : 'MISSED'}`,
);
