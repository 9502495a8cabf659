import fc from 'fast-check';
import type { DetectorEvent } from '../../src/streams/detectors.js';
import type { JsonObject, JsonValue } from '../../src/tools/json.js';

/** Tools the generated streams call. */
export const TOOL_NAMES = ['read', 'edit', 'run'] as const;

/** A piece of a text-mode stream and the calls it must yield when it stands alone. */
export interface StreamPiece {
  readonly text: string;
  readonly calls: readonly { readonly name: string; readonly args: JsonObject }[];
}

const key = fc.constantFrom('path', 'body', 'q', 'n', 'with space', '__proto__', 'a-b', 'x1');
/** Strings with the characters that end calls, tags and strings when mishandled. */
const tricky = fc
  .array(
    fc.constantFrom(
      'a',
      ' ',
      ')',
      '(',
      '}',
      '{',
      '"',
      "'",
      '`',
      '\\',
      '\n',
      '</tool_call>',
      '<<',
      'EOF',
      'é',
      '😀',
      '//',
      '/*',
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(''));
const leaf: fc.Arbitrary<JsonValue> = fc.oneof(
  tricky,
  fc.integer({ min: -1000, max: 1000 }),
  fc
    .double({ noNaN: true, noDefaultInfinity: true })
    .map((value) => (Object.is(value, -0) ? 0 : value)),
  fc.boolean(),
  fc.constant(null),
);
const value: fc.Arbitrary<JsonValue> = fc.oneof(
  { weight: 4, arbitrary: leaf },
  { weight: 1, arbitrary: fc.array(leaf, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(key, leaf, { maxKeys: 2 }) },
);
/** Argument objects as JSON would carry them. */
export const argsArbitrary: fc.Arbitrary<JsonObject> = fc
  .dictionary(key, value, { maxKeys: 4 })
  .map((object) => JSON.parse(JSON.stringify(object)) as JsonObject);

/** Renders a value as a relaxed TypeScript literal: bare keys, single quotes, trailing commas. */
export function relaxed(input: JsonValue): string {
  if (typeof input === 'string') {
    return `'${input.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
  }
  if (Array.isArray(input)) return `[${input.map((item) => `${relaxed(item)}, `).join('')}]`;
  if (input !== null && typeof input === 'object') {
    const members = Object.keys(input).map((name) => {
      const shown = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
      return `${shown}: ${relaxed(input[name] as JsonValue)},\n  `;
    });
    return `{ ${members.join('')}}`;
  }
  return JSON.stringify(input);
}

const prose = fc
  .array(
    fc.constantFrom(
      'Let me look',
      ' at it.',
      'read the file',
      'reading',
      'run (later)',
      '`code`',
      'x < y',
      'see <tool_call> mid-line',
      'edit: ',
      '\t',
      '  ',
      '"quoted (',
      "it's",
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((words) => `${words.join('')}\n`);

const name = fc.constantFrom(...TOOL_NAMES);

/** Well-formed calls: bare or tagged, JSON or relaxed, some with a heredoc value. */
export const callPiece: fc.Arbitrary<StreamPiece> = fc
  .record({
    name,
    args: argsArbitrary,
    style: fc.constantFrom('json', 'relaxed'),
    tagged: fc.boolean(),
    heredoc: fc.option(fc.constantFrom('line one\n  EOFX\n)})</tool_call>', '', 'x'), {
      nil: undefined,
    }),
  })
  .map(({ name: tool, args, style, tagged, heredoc }) => {
    const literal = style === 'json' ? JSON.stringify(args) : relaxed(args);
    let argumentText = literal;
    let expected: JsonObject = args;
    if (heredoc !== undefined) {
      // A heredoc member, appended as the last member.
      argumentText = `${literal.slice(0, literal.lastIndexOf('}'))}${Object.keys(args).length > 0 && style === 'json' ? ',' : ''} doc: <<EOF\n${heredoc}\nEOF\n}`;
      expected = { ...args, doc: heredoc };
    }
    const call = `${tool}(${argumentText})`;
    return {
      text: tagged ? `<tool_call>\n${call}\n</tool_call>\n` : `${call}\n`,
      calls: [{ name: tool, args: expected }],
    };
  });

/** Everything else: prose, fenced code, malformed or unknown calls, tags, overlong line starts. */
const otherPiece: fc.Arbitrary<StreamPiece> = fc.oneof(
  prose.map((text) => ({ text, calls: [] })),
  fc
    .constantFrom(
      '```js\nread({ a: 1 })\n<tool_call>run({})</tool_call>\n```\n',
      '<tool_call>zap({})</tool_call>\n',
      '<tool_call>  </tool_call>\n',
      '<tool_call>42</tool_call>\n',
      '<tool_call>read ({})</tool_call>\n',
      '<tool_call>read({ a: })</tool_call>\n',
      'read(the docs)\n',
      'run("ls")\n',
      '<user_response>Here you go: read({ a: 1 }) is done.</user_response>\n',
      '<user_response>\nmulti\nline\n</user_response>\n',
      '<done>##DONE##</done>\n',
      '<done>open\n',
      `<done>${'d'.repeat(260)}</done>\n`,
      `\`\`\`${'f'.repeat(260)}\nread({ a: 1 })\n`,
      `${'n'.repeat(300)}({ a: 1 })\n`,
    )
    .map((text) => ({ text, calls: [] })),
);

/** A whole stream: pieces in order, maybe ending inside an unclosed call. */
export const streamArbitrary = fc
  .record({
    pieces: fc.array(fc.oneof(callPiece, otherPiece), { maxLength: 6 }),
    tail: fc.constantFrom('', '<tool_call>read({ a: 1', 'edit({ doc: <<EOF\nhalf', '<tool_', '```'),
  })
  .map(({ pieces, tail }) => pieces.map((piece) => piece.text).join('') + tail);

/** Cuts `text` at the given positions (any order, duplicates allowed) into chunks. */
export function splitAt(text: string, cuts: readonly number[]): string[] {
  const positions = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let start = 0;
  for (const position of positions) {
    chunks.push(text.slice(start, position));
    start = position;
  }
  chunks.push(text.slice(start));
  return chunks;
}

/**
 * Every candidate ends: after `end()`, each `candidate_opened` has exactly one promotion or
 * retraction (and nothing else about it follows). Returns the ids that broke the rule.
 */
export function unsettled(events: readonly DetectorEvent[]): string[] {
  const endings = new Map<string, number>();
  const broken: string[] = [];
  for (const event of events) {
    if (event.type === 'candidate_opened') endings.set(event.toolCallId, 0);
    if (event.type === 'candidate_promoted' || event.type === 'candidate_retracted') {
      endings.set(event.toolCallId, (endings.get(event.toolCallId) ?? 0) + 1);
    }
    if (event.type === 'provider_native_call') endings.set(event.toolCallId, 1);
  }
  for (const [id, count] of endings) if (count !== 1) broken.push(`${id}: ${count} endings`);
  return broken;
}
