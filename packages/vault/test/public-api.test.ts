import { describe, expect, it } from 'vitest';
import * as vault from '../src/index.js';

describe('switchyard/vault public names', () => {
  it('exports exactly these runtime names', () => {
    expect(Object.keys(vault).sort()).toEqual([
      'DEFAULT_FIELD_WEIGHTS',
      'DEFAULT_NAMESPACE_DECAY',
      'MAX_REGEX_LENGTH',
      'createToolSearch',
      'toolSearch',
    ]);
  });
});
