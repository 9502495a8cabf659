import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTextCall } from '../../src/streams/detectors.js';
import { argsArbitrary, relaxed } from './text-detector-arbitraries.js';

describe('parseTextCall: accepted forms', () => {
  it('reads JSON and relaxed TypeScript literals: bare keys, quotes, trailing commas, comments', () => {
    const text = `read({
      path: 'a.md', // which file
      "lines": [1, 20,],
      \`tag\`: \`multi
line\`,
      /* flags */ deep: { ok: true, none: null, skip: undefined, n: -1.5e3 },
    })`;
    expect(parseTextCall(text)).toEqual({
      ok: true,
      name: 'read',
      arguments: {
        path: 'a.md',
        lines: [1, 20],
        tag: 'multi\nline',
        deep: { ok: true, none: null, n: -1500 },
      },
      end: text.length,
    });
  });

  it('decodes JavaScript escapes, including line continuations and astral code points', () => {
    const parsed = parseTextCall(String.raw`f({ a: "\u00e9\x41\u{1F600}\t\'\q", b: 'one \
two' })`);
    expect(parsed).toMatchObject({ ok: true, arguments: { a: "éA😀\t'q", b: 'one two' } });
  });

  it('reads heredoc values with bare or quoted tags, indented closers and CRLF lines', () => {
    const text =
      'edit({ content: <<EOF\n  keep  indentation\n\nEOF, other: <<"END"\r\nwin\r\n   END\n, last: <<\'X\'\nX })';
    expect(parseTextCall(text)).toMatchObject({
      ok: true,
      arguments: { content: '  keep  indentation\n', other: 'win', last: '' },
    });
  });

  it('takes name() as {} and stops at the closing parenthesis', () => {
    expect(parseTextCall('run() and more')).toEqual({
      ok: true,
      name: 'run',
      arguments: {},
      end: 5,
    });
  });

  it('keeps __proto__ and constructor as plain data', () => {
    const parsed = parseTextCall('f({ __proto__: { admin: true }, constructor: 1 })');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(Object.getPrototypeOf(parsed.arguments)).toBe(Object.prototype);
    expect(Object.keys(parsed.arguments)).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('forgives a missing ) after a complete object only when asked', () => {
    expect(parseTextCall('f({ a: 1 }', { allowMissingParen: true })).toMatchObject({
      ok: true,
      arguments: { a: 1 },
    });
    expect(parseTextCall('f({ a: 1 }')).toMatchObject({ ok: false, incomplete: true });
  });
});

describe('parseTextCall: failures', () => {
  it.each([
    [
      '',
      'missing_name',
      true,
      'Could not parse a tool call: it must start with the tool name followed by `(`.',
    ],
    [
      '42()',
      'missing_name',
      false,
      'Could not parse a tool call: it must start with the tool name followed by `(`.',
    ],
    ['read', 'invalid_syntax', true, 'Expected `read(` immediately after the tool name.'],
    [
      'read("a.md")',
      'not_an_object',
      false,
      'The call `read(...)` must take one object literal, got a string. Wrap the values in braces: `read({ key: value })`.',
    ],
    [
      'read({ a: 1 }, { b: 2 })',
      'invalid_syntax',
      false,
      'Could not parse the call `read(...)`: expected `)` after the argument, found `,`; a tool call takes one object literal (line 1, column 14). Write the arguments as one object literal: `read({ key: "value" })`.',
    ],
    [
      'read({\n  a: 1\n  b: 2 })',
      'invalid_syntax',
      false,
      'Could not parse the call `read(...)`: expected `,` or `}` after the value of `a`, found `b` (line 3, column 3). Write the arguments as one object literal: `read({ key: "value" })`.',
    ],
    [
      'read({ a: yes })',
      'invalid_syntax',
      false,
      'Could not parse the call `read(...)`: unexpected `yes`: text values must be quoted (line 1, column 11). Write the arguments as one object literal: `read({ key: "value" })`.',
    ],
    [
      'read({ a: "open',
      'invalid_syntax',
      true,
      'Could not parse the call `read(...)`: a string is not closed (line 1, column 11). Write the arguments as one object literal: `read({ key: "value" })`.',
    ],
    [
      'edit({ a: <<EOF trailing\n})',
      'invalid_syntax',
      false,
      'Could not parse the call `edit(...)`: the heredoc opener <<EOF must end its line; its content starts on the next line (line 1, column 16). Write the arguments as one object literal: `edit({ key: "value" })`.',
    ],
    [
      'read({ a: "\\u12" })',
      'invalid_syntax',
      false,
      'Could not parse the call `read(...)`: \\u must be followed by 4 hexadecimal digits (line 1, column 12). Write the arguments as one object literal: `read({ key: "value" })`.',
    ],
  ])('refuses %j as %s', (text, reason, incomplete, message) => {
    expect(parseTextCall(text)).toEqual({
      ok: false,
      name: text.startsWith('read') ? 'read' : text.startsWith('edit') ? 'edit' : '',
      reason,
      message,
      incomplete,
    });
  });

  it('says a text is incomplete exactly when it is a proper prefix of a valid call', () => {
    const call = 'edit({ path: "a", n: [1, -2.5e1, true], doc: <<EOF\nbody\nEOF\n, z: null })';
    for (let cut = 0; cut < call.length; cut += 1) {
      const prefix = call.slice(0, cut);
      expect(parseTextCall(prefix), prefix).toMatchObject({ ok: false, incomplete: true });
    }
  });
});

describe('parseTextCall: properties', () => {
  it('reads any JSON object the way JSON.parse does, on the fast path and the relaxed path', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (object) => {
        const json = JSON.stringify(object);
        const expected = JSON.parse(json) as unknown;
        expect(parseTextCall(`f(${json})`)).toMatchObject({ ok: true, arguments: expected });
        // A trailing comment makes JSON.parse refuse the text, so the relaxed parser reads it.
        expect(parseTextCall(`f(${json} /* c */)`)).toMatchObject({
          ok: true,
          arguments: expected,
        });
      }),
    );
  });

  it('reads relaxed renderings of any arguments back to the same object', () => {
    fc.assert(
      fc.property(argsArbitrary, (args) => {
        expect(parseTextCall(`f(${relaxed(args)})`)).toMatchObject({ ok: true, arguments: args });
      }),
    );
  });
});
