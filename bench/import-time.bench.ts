/**
 * What importing Switchyard costs a fresh process: `import('switchyard')` (the package root, as
 * users import it from dist/) and the provider subpaths, each against `node -e 0` measured in the
 * same run, alternating, in fresh processes. Target: the root ≤ 80 ms over `node -e 0`.
 *
 * Run: npm run build && tsx bench/import-time.bench.ts   (ROUNDS=n, default 15)
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROUNDS = Number(process.env.ROUNDS ?? 15);
const root = fileURLToPath(new URL('..', import.meta.url));

const CASES: Record<string, string> = {
  'node -e 0 (baseline)': '0',
  "import('switchyard')": "await import('./dist/index.js')",
  "import('switchyard/middleware')": "await import('./dist/middleware/index.js')",
  "import('switchyard/executors')": "await import('./dist/executors.js')",
  "import('switchyard/providers/openai')": "await import('./dist/providers/openai/index.js')",
  "import('switchyard/providers/anthropic')": "await import('./dist/providers/anthropic/index.js')",
};

function wallMs(code: string): number {
  const started = performance.now();
  execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root });
  return performance.now() - started;
}

const samples = new Map<string, number[]>(Object.keys(CASES).map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round += 1) {
  for (const [name, code] of Object.entries(CASES)) samples.get(name)?.push(wallMs(code));
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const baseline = median(samples.get('node -e 0 (baseline)') ?? []);
console.table(
  [...samples].map(([name, values]) => ({
    case: name,
    'median (ms)': median(values).toFixed(1),
    'over node -e 0 (ms)': (median(values) - baseline).toFixed(1),
    'min–max (ms)': `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`,
  })),
);
const rootOver = median(samples.get("import('switchyard')") ?? []) - baseline;
console.log(
  `import('switchyard') costs ${rootOver.toFixed(1)} ms over node -e 0; target ≤ 80 ms: ${rootOver <= 80 ? 'met' : 'MISSED'}`,
);
