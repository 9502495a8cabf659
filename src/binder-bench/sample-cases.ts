import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { codeFileUrl } from '../package-files.js';
import { type BenchCaseSet, parseBenchCases } from './bench-case.js';

/** Where the bundled sample lives (beside this module's source, in `src/` and in `dist/`). */
export const SAMPLE_CASES_PATH = fileURLToPath(codeFileUrl('binder-bench/data/bfcl-sample.jsonl'));

/**
 * The cases bundled with the package: 48 single-call cases of the Berkeley Function Calling
 * Leaderboard (Apache-2.0; see `data/NOTICE.md` beside this module for the source and the rule
 * that chose them), so the benchmark runs with no data file.
 */
export function sampleCases(): BenchCaseSet {
  return parseBenchCases(readFileSync(SAMPLE_CASES_PATH, 'utf8'), 'bfcl-sample (bundled)');
}
