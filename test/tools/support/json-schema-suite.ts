import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SchemaResource } from '../../../src/tools/schema-validator.js';

/** The vendored JSON-Schema-Test-Suite (see its LICENSE beside the files). */
export const SUITE_ROOT = fileURLToPath(
  new URL('../../fixtures/json-schema-test-suite/', import.meta.url),
);

export type SuiteDraft = 'draft7' | 'draft2020-12';

export const DIALECT_URI: Readonly<Record<SuiteDraft, string>> = {
  draft7: 'http://json-schema.org/draft-07/schema#',
  'draft2020-12': 'https://json-schema.org/draft/2020-12/schema',
};

export interface SuiteTest {
  readonly description: string;
  readonly data: unknown;
  readonly valid: boolean;
}

export interface SuiteGroup {
  readonly description: string;
  readonly schema: SchemaResource;
  readonly tests: readonly SuiteTest[];
}

export interface SuiteFile {
  /** `draft7/ref.json`, `draft2020-12/optional/format/email.json`. */
  readonly name: string;
  readonly groups: readonly SuiteGroup[];
}

function jsonFiles(directory: string): string[] {
  return readdirSync(directory)
    .sort()
    .flatMap((entry) => {
      const path = join(directory, entry);
      if (statSync(path).isDirectory()) return jsonFiles(path);
      return entry.endsWith('.json') ? [path] : [];
    });
}

/** The suite's files under `folder` (`draft7`, `draft2020-12/optional/format`), parsed. */
export function suiteFiles(folder: string, options: { optional?: boolean } = {}): SuiteFile[] {
  return jsonFiles(join(SUITE_ROOT, folder))
    .filter((path) => options.optional === true || !path.includes('/optional/'))
    .map((path) => ({
      name: relative(SUITE_ROOT, path),
      groups: JSON.parse(readFileSync(path, 'utf8')) as SuiteGroup[],
    }));
}

/**
 * The suite's `remotes`, keyed by the URL the suite serves them at, for one draft: the shared
 * ones plus the draft's own folder (other drafts' remotes declare their own `$schema`).
 */
export function suiteRemotes(draft: SuiteDraft): Record<string, SchemaResource> {
  const root = join(SUITE_ROOT, 'remotes');
  const remotes: Record<string, SchemaResource> = {};
  for (const path of jsonFiles(root)) {
    const name = relative(root, path);
    const folder = name.split('/')[0] ?? '';
    if (/^draft/.test(folder) && folder !== draft) continue;
    remotes[`http://localhost:1234/${name}`] = JSON.parse(readFileSync(path, 'utf8'));
  }
  return remotes;
}
