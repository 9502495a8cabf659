import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SAMPLE_CASES_PATH, sampleCases } from '../src/sample-cases.js';
import { SAMPLE_CATEGORIES, selectSample } from './sample-rule.js';

// The converted BFCL dev split sits in the shared data folder beside the repository, when present.
const DEV_SPLIT = [
  fileURLToPath(new URL('../../../shared/data/bfcl/dev.jsonl', import.meta.url)),
  '/work/shared/data/bfcl/dev.jsonl',
].find((path) => existsSync(path));

describe('the bundled sample', () => {
  it('holds 48 single-call cases, 12 per category, every one usable', () => {
    const set = sampleCases();
    expect(set.cases).toHaveLength(48);
    expect(set.excluded).toEqual([]);
    for (const category of SAMPLE_CATEGORIES) {
      expect(set.cases.filter((c) => c.category === category)).toHaveLength(12);
    }
  });

  it.skipIf(DEV_SPLIT === undefined)(
    'is exactly what the documented rule selects from the dev split',
    () => {
      const expected = selectSample(readFileSync(DEV_SPLIT!, 'utf8'));
      const shipped = readFileSync(SAMPLE_CASES_PATH, 'utf8').trimEnd().split('\n');
      expect(shipped).toEqual(expected);
    },
  );

  it('ships its license notice beside it', () => {
    const notice = readFileSync(new URL('NOTICE.md', `file://${SAMPLE_CASES_PATH}`), 'utf8');
    expect(notice).toContain('Apache License 2.0');
    expect(notice).toContain('6ea57973c7a6097fd7c5915698c54c17c5b1b6c8');
  });
});
