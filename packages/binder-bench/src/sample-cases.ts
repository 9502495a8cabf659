import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type BenchCaseSet, parseBenchCases } from './bench-case.js';

/** Where the bundled sample lives: the package's `data/` folder. */
export const SAMPLE_CASES_PATH = fileURLToPath(
  // The data folder sits beside src/ and dist/, each one level below the package root.
  new URL('../data/bfcl-sample.jsonl', import.meta.url),
);

/**
 * The cases bundled with the package: 48 single-call cases of the Berkeley Function Calling
 * Leaderboard (Apache-2.0; see `data/NOTICE.md` beside this module for the source and the rule
 * that chose them), so the benchmark runs with no data file.
 */
export function sampleCases(): BenchCaseSet {
  return parseBenchCases(readFileSync(SAMPLE_CASES_PATH, 'utf8'), 'bfcl-sample (bundled)');
}
