import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MissingPeerDependencyError } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';
import { fakeClock } from '../src/bench-clock.js';
import { accuracyPlotSpec, latencyCdfPoints, latencyCdfSpec } from '../src/bench-plot-specs.js';
import { loadChartingLibrary, renderBenchPlots } from '../src/render-bench-plots.js';
import { runBinderBenchmark } from '../src/run-binder-benchmark.js';
import { writeBenchResults } from '../src/write-bench-results.js';
import { CASES } from './bench-fixtures.js';

const result = await runBinderBenchmark({
  cases: CASES,
  binders: [
    { type: 'lexical' },
    { type: 'simulated', label: 'spread', latency: { kind: 'uniform', minMs: 100, maxMs: 900 } },
  ],
  budgetsMs: [200, 800],
  clock: fakeClock(),
});

interface LaidOut {
  runAsync(): Promise<unknown>;
  scale(name: string): (value: number) => number;
  finalize(): void;
}

describe('the plots', () => {
  it('plot one accuracy line per binder and the reference rows as rules', () => {
    const spec = accuracyPlotSpec(result) as { layer: { data: { values: unknown[] } }[] };
    expect(spec.layer[0]!.data.values).toEqual([
      { name: 'oracle (reference)', accuracy: 1 },
      { name: 'no binder (reference)', accuracy: 0 },
    ]);
    expect(spec.layer[2]!.data.values).toHaveLength(4);
  });

  it('draw each binder’s CDF from its hops at the largest budget, ending at 100%', () => {
    const points = latencyCdfPoints(result).filter(
      (point) => point.binder === 'spread (simulated)',
    );
    const hops = result.outcomes.filter(
      (o) => o.binder === 'spread (simulated)' && o.budgetMs === 800,
    );
    expect(points.map((point) => point.latencyMs)).toEqual(
      hops.map((o) => o.latencyMs).sort((a, b) => a - b),
    );
    expect(points.at(-1)!.fraction).toBe(1);
  });

  it('render to SVG with vega, naming every binder, simulated ones as such, and marking budgets', async () => {
    const plots = await renderBenchPlots(result);
    for (const svg of [plots.accuracySvg, plots.latencySvg]) {
      expect(svg).toMatch(/^<svg /);
      expect(svg).toContain('spread (simulated)');
      expect(svg).toContain('lexical');
    }
    expect(plots.latencySvg).toContain('800 ms');
    expect(plots.accuracySvg).toContain('oracle (reference)');
  });

  it('draw a binder of no latency (lexical, on the virtual clock) beside the latency axis, not on it', async () => {
    const { vega, vegaLite } = (await loadChartingLibrary()) as unknown as {
      vega: {
        parse(spec: unknown): unknown;
        View: new (runtime: unknown, options: object) => LaidOut;
      };
      vegaLite: { compile(spec: unknown): { spec: unknown } };
    };
    const view = new vega.View(vega.parse(vegaLite.compile(latencyCdfSpec(result)).spec), {
      renderer: 'none',
    });
    await view.runAsync();
    const lexical = latencyCdfPoints(result).filter((point) => point.binder === 'lexical');
    expect(lexical.length).toBeGreaterThan(0);
    for (const point of lexical) expect(view.scale('x')(point.latencyMs)).toBeGreaterThanOrEqual(5);
    view.finalize();
  });

  it('keep every budget label of the latency plot inside the plot, clear of the legend', async () => {
    // The largest hop here is cut at the largest budget, so the axis ends at that budget's rule.
    const { latencySvg } = await renderBenchPlots(result);
    const width = 560;
    const labels = [
      ...latencySvg.matchAll(
        /<text[^>]*text-anchor="(\w+)"[^>]*transform="translate\(([\d.]+),[\d.]+\)"[^>]*>(\d+ ms)<\/text>/g,
      ),
    ];
    expect(labels.map((label) => label[3])).toEqual(['200 ms', '800 ms']);
    for (const [, anchor, x, text] of labels) {
      // 11px sans-serif: at most 7 px a character.
      const extent = (text as string).length * 7;
      const [left, right] =
        anchor === 'end' ? [Number(x) - extent, Number(x)] : [Number(x), Number(x) + extent];
      expect(left, text).toBeGreaterThanOrEqual(0);
      expect(right, text).toBeLessThanOrEqual(width);
    }
  });

  const notFound = (name: string) =>
    Object.assign(new Error(`Cannot find package '${name}' imported from report.js`), {
      code: 'ERR_MODULE_NOT_FOUND',
    });

  it('fail with MissingPeerDependencyError naming the package that cannot be loaded', async () => {
    const error = await loadChartingLibrary(async (name) => {
      if (name === 'vega-lite') throw notFound(name);
      return import(name);
    }).catch((caught: unknown) => caught);
    expect(MissingPeerDependencyError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ packageName: 'vega-lite' });
    expect((error as Error).message).toContain('npm install vega-lite');
    const broken = new Error('vega failed to initialise');
    await expect(loadChartingLibrary(async () => Promise.reject(broken))).rejects.toBe(broken);
  });

  it('leave results.json written when the plots cannot be drawn', async () => {
    const out = tempDir('bench-plots-');
    const failed = await writeBenchResults(result, out, {
      load: () => loadChartingLibrary(async (name) => Promise.reject(notFound(name))),
    }).catch((caught: unknown) => caught);
    expect(failed).toMatchObject({ code: 'SY_ERR_MISSING_PEER_DEPENDENCY', packageName: 'vega' });
    expect(JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')).rows).toHaveLength(4);
    expect(existsSync(join(out, 'report.html'))).toBe(false);
  });
});
