import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { moduleUrl, packageLayout } from '../src/package-files.js';

const ROOT = new URL('..', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as {
  version: string;
};

// Run from the sources here; test/built-package.test.ts covers the bundled dist/.
describe('packageLayout', () => {
  it('finds the package root and, from the sources, src/', () => {
    const layout = packageLayout();
    expect(layout.root.href).toBe(ROOT.href);
    expect(layout.fromSources).toBe(true);
    expect(layout.code.href).toBe(new URL('src/', ROOT).href);
    expect(layout.version).toBe(manifest.version);
    expect(packageLayout()).toBe(layout);
  });

  it('names modules by their path under src/, as TypeScript when run from the sources', () => {
    const url = moduleUrl('actors/worker-entry');
    expect(url.href).toBe(new URL('src/actors/worker-entry.ts', ROOT).href);
    expect(existsSync(fileURLToPath(url))).toBe(true);
  });
});
