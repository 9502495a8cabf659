import { MissingPeerDependencyError } from 'switchyard';
import { accuracyPlotSpec, latencyCdfSpec, type VegaLiteSpec } from './bench-plot-specs.js';
import type { BinderBenchmarkResult } from './binder-benchmark-options.js';

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
const FEATURE =
  'switchyard bench binder plots (the table and results.json need neither vega nor vega-lite)';

function isMissing(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const notFound = code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
  return notFound && typeof message === 'string' && message.includes(name);
}

/**
 * Imports `vega` and `vega-lite` (optional peer dependencies; ESM-only, hence a dynamic import).
 * Throws `MissingPeerDependencyError` naming the package that is not installed. `importModule`
 * replaces the dynamic import (tests).
 */
export async function loadChartingLibrary(
  importModule: (name: string) => Promise<unknown> = importPackage,
): Promise<ChartingLibrary> {
  const load = (name: string) =>
    importModule(name).catch((error: unknown) => {
      throw isMissing(error, name)
        ? new MissingPeerDependencyError(name, FEATURE, { cause: error })
        : error;
    });
  const vega = await load('vega');
  const vegaLite = await load('vega-lite');
  return { vega, vegaLite } as unknown as ChartingLibrary;
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
 * headless renderer (no canvas, no native binaries). Throws `MissingPeerDependencyError` when
 * `vega` or `vega-lite` is not installed. `load` replaces the import (tests).
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
