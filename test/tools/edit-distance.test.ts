import { describe, expect, it } from 'vitest';
import { editDistance } from '../../src/tools/edit-distance.js';

describe('editDistance', () => {
  it('counts an insertion, a deletion, a substitution and an adjacent swap as one each', () => {
    expect(editDistance('required', 'requried', 3)).toBe(1);
    expect(editDistance('get_weather', 'get_wether', 3)).toBe(1);
    expect(editDistance('items', 'item', 3)).toBe(1);
    expect(editDistance('minimum', 'maximum', 3)).toBe(2);
  });

  it('answers limit + 1 for anything farther than the limit', () => {
    expect(editDistance('properties', 'pattern', 2)).toBe(3);
    expect(editDistance('a', 'abcdef', 2)).toBe(3);
    expect(editDistance('same', 'same', 0)).toBe(0);
  });
});
