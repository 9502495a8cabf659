import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as hostTools from '../../src/host-tools/index.js';

// The runtime names of `switchyard/host-tools`, sorted: changing one is a deliberate edit here.
const PUBLIC_NAMES = [
  'commandTools',
  'compileLinearRegex',
  'createRootScope',
  'evaluateArithmetic',
  'gitToolbox',
  'gitTools',
  'isHostRefusal',
  'matchesArgvPrefix',
  'queryJson',
  'readTools',
  'stdlibTools',
  'withHostToolResults',
];

describe('switchyard/host-tools', () => {
  it('exports exactly its public names', () => {
    expect(Object.keys(hostTools).sort()).toEqual(PUBLIC_NAMES);
  });

  it('is a subpath of the package with its types', () => {
    const manifest = JSON.parse(
      readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
    );
    expect(manifest.exports['./host-tools']).toEqual({
      types: './dist/host-tools/index.d.ts',
      default: './dist/host-tools/index.js',
    });
  });
});
