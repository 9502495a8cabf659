// Vitest global setup: one temporary root for the whole run, removed when the run ends, so tests
// that write receipts, logs and batches leave nothing behind in the system's temp directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'switchyard-tests-'));
  process.env.SWITCHYARD_TEST_TMP = root;
  return () => rmSync(root, { recursive: true, force: true });
}
