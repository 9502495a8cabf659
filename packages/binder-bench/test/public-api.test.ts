import { describe, expect, it } from 'vitest';
import * as entry from '../src/index.js';

// The runtime names of @switchyard/binder-bench, sorted: changing them is a deliberate edit of this list
// (and of the changelog).
const NAMES = [
  'BENCH_FILES',
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

describe('@switchyard/binder-bench', () => {
  it('exports exactly its public names, none undefined', () => {
    expect(Object.keys(entry).sort()).toEqual(NAMES);
    expect(Object.entries(entry).filter(([, value]) => value === undefined)).toEqual([]);
  });
});
