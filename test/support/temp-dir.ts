import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory inside the test run's temporary root (see `temp-root.ts`). */
export function tempDir(prefix: string): string {
  return mkdtempSync(join(process.env.SWITCHYARD_TEST_TMP ?? tmpdir(), prefix));
}
