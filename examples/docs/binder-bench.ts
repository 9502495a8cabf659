// packages/binder-bench/README.md: the binder benchmark from code.
// #region run
import { formatBenchTable, runBinderBenchmark, writeBenchResults } from '@switchyard/binder-bench';

const result = await runBinderBenchmark({
  binders: [{ type: 'lexical' }, { type: 'openai', model: 'gpt-4.1-nano' }],
  budgetsMs: [250, 500, 1000],
});
process.stdout.write(formatBenchTable(result));
await writeBenchResults(result, 'bench-out'); // results.json, two SVG plots, report.html
// #endregion run
