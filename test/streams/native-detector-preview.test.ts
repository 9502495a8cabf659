import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PartialJsonPreview } from '../../src/streams/detect/partial-json-preview.js';

function previewOf(text: string) {
  const preview = new PartialJsonPreview();
  preview.feed(text);
  return preview.value();
}

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
      ['{"a": 1 "b"', undefined],
      ['{"a": "raw\nline', undefined],
      ['{"a": "\\q', undefined],
      ['[1, 2]', [1, 2]],
      ['"top', 'top'],
      ['null', null],
      [
        '{"__proto__": {"x": 1}, "k": [{"__proto__": 2',
        { ['__proto__']: { x: 1 }, k: [{ ['__proto__']: 2 }] },
      ],
    ];
    for (const [text, preview] of cases) {
      expect(previewOf(text), text).toEqual(preview);
    }
  });

  it('gives the same preview incrementally as from scratch, and the value itself once complete', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.boolean(), (object, pretty) => {
        const text = JSON.stringify(object, null, pretty ? 2 : undefined);
        const incremental = new PartialJsonPreview();
        const shown: { preview: unknown; json: string | undefined }[] = [];
        for (let cut = 0; cut <= text.length; cut += 1) {
          if (cut > 0) incremental.feed(text[cut - 1]!);
          const preview = incremental.value();
          expect(preview).toEqual(previewOf(text.slice(0, cut)));
          shown.push({ preview, json: JSON.stringify(preview) });
        }
        expect(incremental.value()).toEqual(JSON.parse(text));
        // A preview handed out earlier never changes as the text goes on.
        for (const { preview, json } of shown) expect(JSON.stringify(preview)).toBe(json);
      }),
      { numRuns: 20 },
    );
  });
});
