import { createHash } from 'node:crypto';

/** The categories the bundled sample draws from: those whose cases expect exactly one call. */
export const SAMPLE_CATEGORIES = ['simple_python', 'multiple', 'live_simple', 'live_multiple'];
export const PER_CATEGORY = 12;

/** The dev cases whose expected answer validates against no schema (listed in the data's README). */
export const KNOWN_INVALID = new Set([
  'parallel_multiple_12',
  'parallel_multiple_21',
  'parallel_multiple_26',
  'parallel_multiple_94',
  'live_simple_71-35-0',
  'live_simple_106-63-0',
  'live_simple_112-68-0',
  'live_multiple_87-38-4',
  'live_multiple_152-58-6',
  'live_multiple_507-149-4',
  'live_multiple_552-153-1',
  'live_multiple_596-158-2',
  'live_multiple_733-167-4',
  'live_multiple_735-167-6',
  'live_multiple_750-169-5',
  'live_multiple_835-178-10',
  'live_multiple_964-207-0',
  'live_multiple_1038-265-0',
]);

const hashOf = (id: string) => createHash('sha256').update(id).digest('hex');

/**
 * The rule that chose the bundled sample from the BFCL dev split: per category (in the order
 * above), the cases with one expected call that are not known-invalid, ordered by the SHA-256 of
 * their id, first 12. Lines are kept byte for byte.
 */
export function selectSample(devText: string): string[] {
  const rows = devText
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => ({
      line,
      row: JSON.parse(line) as { id: string; category: string; expected: unknown[] },
    }));
  return SAMPLE_CATEGORIES.flatMap((category) =>
    rows
      .filter(
        ({ row }) =>
          row.category === category && row.expected.length === 1 && !KNOWN_INVALID.has(row.id),
      )
      .sort((a, b) => (hashOf(a.row.id) < hashOf(b.row.id) ? -1 : 1))
      .slice(0, PER_CATEGORY)
      .map(({ line }) => line),
  );
}
