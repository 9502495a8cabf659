import { accuracyPlotSpec, latencyCdfSpec, type VegaLiteSpec } from './bench-plot-specs.js';
import { ChartLibraryMissingError } from './chart-library-missing-error.js';
import type { BinderBenchmarkResult } from './run-binder-benchmark.js';

/** The parts of `vega` and `vega-lite` the plots use. */
export interface ChartingLibrary {
  readonly vega: {
    parse(spec: never): unknown;
    View: new (
      runtime: never,
      options: { renderer: 'none' },
    ) => { toSVG(): Promise<string>; finalize(): unknown };
  };
  readonly vegaLite: { compile(spec: never): { spec: unknown } };
}

/** The benchmark's plots as standalone SVG documents. */
export interface BenchPlots {
  readonly accuracySvg: string;
  readonly latencySvg: string;
}

const importPackage = (name: string): Promise<unknown> => import(name);

/**
 * Imports `vega` and `vega-lite` (optional peer dependencies). Throws `ChartLibraryMissingError`
 * when either cannot be loaded. `importModule` replaces the dynamic import (tests).
 */
export async function loadChartingLibrary(
  importModule: (name: string) => Promise<unknown> = importPackage,
): Promise<ChartingLibrary> {
  try {
    const [vega, vegaLite] = await Promise.all([importModule('vega'), importModule('vega-lite')]);
    return { vega, vegaLite } as unknown as ChartingLibrary;
  } catch (error) {
    throw new ChartLibraryMissingError(error);
  }
}

async function toSvg(library: ChartingLibrary, spec: VegaLiteSpec): Promise<string> {
  const compiled = library.vegaLite.compile(spec as never).spec;
  const view = new library.vega.View(library.vega.parse(compiled as never) as never, {
    renderer: 'none',
  });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/**
 * Renders the plots — accuracy against budget per binder, latency CDF per binder with the budgets
 * marked — from Vega-Lite specifications (`accuracyPlotSpec`, `latencyCdfSpec`) to SVG with Vega's
 * headless renderer (no canvas, no native binaries). Throws `ChartLibraryMissingError` when `vega`
 * or `vega-lite` is not installed. `load` replaces the import (tests).
 */
export async function renderBenchPlots(
  result: BinderBenchmarkResult,
  options: { readonly load?: () => Promise<ChartingLibrary> } = {},
): Promise<BenchPlots> {
  const library = await (options.load ?? (() => loadChartingLibrary()))();
  return {
    accuracySvg: await toSvg(library, accuracyPlotSpec(result)),
    latencySvg: await toSvg(library, latencyCdfSpec(result)),
  };
}
