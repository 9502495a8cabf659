import { describe, expect, it } from 'vitest';
import * as binderBench from '../../src/binder-bench/index.js';

// The runtime names of the `switchyard/binder-bench` subpath, sorted.
const PUBLIC_NAMES = [
  'BENCH_FILES',
  'ChartLibraryMissingError',
  'DEFAULT_BINDERS',
  'SAMPLE_CASES_PATH',
  'accuracyPlotSpec',
  'benchReportHtml',
  'createLexicalBinder',
  'drawLatency',
  'fakeClock',
  'formatBenchTable',
  'latencyCdfSpec',
  'loadChartingLibrary',
  'matchArguments',
  'normalizeAnswerString',
  'oracleArguments',
  'parseBenchCases',
  'parseBinderSpec',
  'readBenchCases',
  'realClock',
  'renderBenchPlots',
  'runBinderBenchmark',
  'sampleCases',
  'startSimulatedBinderServer',
  'summarizeLatencies',
  'writeBenchResults',
];

describe('switchyard/binder-bench', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(binderBench).sort()).toEqual(PUBLIC_NAMES);
  });
});
