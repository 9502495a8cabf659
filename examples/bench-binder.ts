// The README's binder benchmark, as an API call: the lexical baseline, one simulated binder and,
// when OPENAI_API_KEY is set, a real OpenAI-compatible binder, under three budgets.
// Run: npm run build && npx tsx examples/bench-binder.ts
import {
  type BinderSpec,
  formatBenchTable,
  runBinderBenchmark,
  writeBenchResults,
} from '@switchyard/binder-bench';

const binders: BinderSpec[] = [
  { type: 'lexical' },
  { type: 'simulated', label: 'fast', latency: { kind: 'lognormal', medianMs: 180, p95Ms: 450 } },
];
if (process.env.OPENAI_API_KEY !== undefined) {
  binders.push({ type: 'openai', model: 'gpt-4.1-nano' });
}

const result = await runBinderBenchmark({
  binders,
  budgetsMs: [250, 500, 1000],
  concurrency: 4,
  onProgress: ({ done, total }) => process.stderr.write(`\r${done}/${total}`),
});
process.stderr.write('\n');
process.stdout.write(formatBenchTable(result));
await writeBenchResults(result, 'binder-bench-results'); // results.json, two SVG plots, report.html
