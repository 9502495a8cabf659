import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PartialJsonPreview } from '../../src/streams/detect/partial-json-preview.js';

describe('PartialJsonPreview', () => {
  it('closes open strings, arrays and objects, and leaves out what cannot be shown yet', () => {
    const cases: [string, unknown][] = [
      ['', undefined],
      ['{', {}],
      ['{"pa', {}],
      ['{"path": ', {}],
      ['{"path": "a.', { path: 'a.' }],
      ['{"path": "a\\', { path: 'a' }],
      ['{"path": "a\\u00', { path: 'a' }],
      ['{"path": "a\\u00e9', { path: 'aé' }],
      ['{"n": [1, 2', { n: [1, 2] }],
      ['{"n": [1, 2.', { n: [1] }],
      ['{"n": -', {}],
      ['{"ok": tr', {}],
      ['{"ok": true', { ok: true }],
      ['{"a": {"b": [{"c": "d', { a: { b: [{ c: 'd' }] } }],
      ['{"a": 1} trailing', { a: 1 }],
      ["{'single': 1", undefined],
    ];
    for (const [text, preview] of cases) {
      expect(new PartialJsonPreview().preview(text), text).toEqual(preview);
    }
  });

  it('gives the same preview incrementally as from scratch, and the value itself once complete', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.boolean(), (object, pretty) => {
        const text = JSON.stringify(object, null, pretty ? 2 : undefined);
        const incremental = new PartialJsonPreview();
        for (let cut = 0; cut <= text.length; cut += 1) {
          const prefix = text.slice(0, cut);
          expect(incremental.preview(prefix)).toEqual(new PartialJsonPreview().preview(prefix));
        }
        expect(incremental.preview(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 30 },
    );
  });
});
