import type { BinderBenchmarkResult } from './binder-benchmark-options.js';
import type { BenchPlots } from './render-bench-plots.js';

const escapeHtml = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

/** An SVG document without its XML prologue, ready to inline. */
const inline = (svg: string) => svg.replace(/^<\?xml[^>]*>\s*/, '');

/**
 * One self-contained HTML page (no scripts, no external files): the run's settings, both plots
 * inline (or, with `plots` undefined, a line saying what draws them), the table, the binders
 * (simulated ones with their latency distribution) and the cases left out.
 */
export function benchReportHtml(
  result: BinderBenchmarkResult,
  plots: BenchPlots | undefined,
  table: string,
): string {
  const binders = result.binders
    .map((binder) => {
      const what = binder.simulated
        ? `simulated: ${binder.latency ?? 'custom'}`
        : `${binder.provider} / ${binder.model}`;
      return `<li><b>${escapeHtml(binder.label)}</b> — ${escapeHtml(what)}</li>`;
    })
    .join('\n');
  const excluded = result.dataset.excluded
    .map((entry) => `<li>${escapeHtml(entry.id)}: ${escapeHtml(entry.reason)}</li>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Switchyard binder latency-budget benchmark</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 70rem; color: #222; }
pre { font-size: 12px; overflow-x: auto; background: #f6f6f6; padding: 1rem; }
figure { margin: 1.5rem 0; }
</style>
</head>
<body>
<h1>Binder latency-budget benchmark</h1>
<p>${result.dataset.cases} cases from ${escapeHtml(result.dataset.source)}; planner: ${result.planner};
budgets ${result.budgetsMs.join(', ')} ms; concurrency ${result.concurrency}; warm-up ${result.warmup};
${result.clock === 'virtual' ? 'virtual clock (latencies drawn, not timed)' : 'wall clock'}.
Rows marked <i>(simulated)</i> answer the expected arguments after drawn latencies: they show what a budget cuts, not what a model knows.</p>
${
  plots === undefined
    ? '<p>No plots: they need the optional packages vega and vega-lite (npm install vega vega-lite).</p>'
    : `<figure>${inline(plots.accuracySvg)}</figure>\n<figure>${inline(plots.latencySvg)}</figure>`
}
<h2>Table</h2>
<pre>${escapeHtml(table)}</pre>
<h2>Binders</h2>
<ul>
${binders}
</ul>
${excluded === '' ? '' : `<h2>Cases left out</h2>\n<ul>\n${excluded}\n</ul>`}
</body>
</html>
`;
}
