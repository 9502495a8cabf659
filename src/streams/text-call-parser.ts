import { isPlainObject, type JsonObject } from '../tools/json.js';
import { describeAt, LiteralSyntaxError } from './detect/literal-syntax-error.js';
import { ObjectLiteralParser } from './detect/object-literal-parser.js';
import { nameLength } from './detect/text-chars.js';

/** Options of `parseTextCall`. */
export interface TextCallParseOptions {
  /**
   * Accept a call whose closing `)` is missing when a complete object literal runs to the end of
   * the text (models often write `name({ … }` inside a `<tool_call>` block). Default false.
   */
  readonly allowMissingParen?: boolean;
}

/** The outcome of `parseTextCall`. */
export type TextCallParse =
  | {
      readonly ok: true;
      readonly name: string;
      readonly arguments: JsonObject;
      /** Characters consumed, through the closing `)`. */
      readonly end: number;
    }
  | {
      readonly ok: false;
      /** The tool name, or `''` when the text does not start with one. */
      readonly name: string;
      readonly reason: 'missing_name' | 'invalid_syntax' | 'not_an_object';
      /** Model-facing: what is wrong, where, and the shape to use instead. */
      readonly message: string;
      /** True when the text ended inside the call: more text could still complete it. */
      readonly incomplete: boolean;
    };

/**
 * Parses a text-mode tool call at the start of `text`: `name(` then one argument, then `)`.
 * The argument is an object literal in JSON or relaxed TypeScript form (unquoted keys, single
 * quotes and backticks, trailing commas, comments, heredoc values `<<TAG` … `TAG`); `name()`
 * means `{}`. Text after the call is left alone (`end` says where the call ends).
 *
 * Never throws for model input: a failure is a result with a message for the model.
 *
 * @example
 * parseTextCall('read({ path: "a.md", lines: [1, 20], })');
 * // { ok: true, name: 'read', arguments: { path: 'a.md', lines: [1, 20] }, end: 40 }
 */
export function parseTextCall(text: string, options: TextCallParseOptions = {}): TextCallParse {
  const length = nameLength(text, 0);
  if (length === 0) {
    return {
      ok: false,
      name: '',
      reason: 'missing_name',
      message: 'Could not parse a tool call: it must start with the tool name followed by `(`.',
      incomplete: text.trim() === '',
    };
  }
  const name = text.slice(0, length);
  if (text.charCodeAt(length) !== 0x28) {
    return failure(
      name,
      'invalid_syntax',
      `Expected \`${name}(\` immediately after the tool name.`,
      length >= text.length,
    );
  }
  return fastJsonCall(text, name) ?? relaxedCall(text, name, options);
}

/**
 * Most calls carry plain JSON: when the text ends with `)`, one native `JSON.parse` of what lies
 * between the parentheses settles it. Anything else falls through to the relaxed parser, which
 * reads JSON the same way.
 */
function fastJsonCall(text: string, name: string): TextCallParse | undefined {
  let close = text.length - 1;
  while (close > name.length && isSpace(text.charCodeAt(close))) close -= 1;
  if (text.charCodeAt(close) !== 0x29 || !startsLikeJsonObject(text, name.length + 1)) {
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.slice(name.length + 1, close));
  } catch {
    return undefined;
  }
  return isPlainObject(parsed)
    ? { ok: true, name, arguments: parsed as JsonObject, end: close + 1 }
    : undefined;
}

/** `{` then `"` or `}`: a relaxed literal (bare or single-quoted keys) is not worth a JSON.parse. */
function startsLikeJsonObject(text: string, from: number): boolean {
  let index = from;
  while (isSpace(text.charCodeAt(index))) index += 1;
  if (text.charCodeAt(index) !== 0x7b) return false;
  index += 1;
  while (isSpace(text.charCodeAt(index))) index += 1;
  const code = text.charCodeAt(index);
  return code === 0x22 || code === 0x7d;
}

function relaxedCall(text: string, name: string, options: TextCallParseOptions): TextCallParse {
  const parser = new ObjectLiteralParser(text, name.length + 1);
  try {
    parser.skipTrivia();
    const value = parser.peek() === 0x29 ? {} : parser.parseValue();
    parser.skipTrivia();
    if (parser.atEnd()) {
      if (options.allowMissingParen === true && isPlainObject(value)) {
        return { ok: true, name, arguments: value as JsonObject, end: parser.index };
      }
      parser.fail('the call is not closed with `)`', parser.index, true);
    }
    if (parser.peek() !== 0x29) {
      parser.fail(
        `expected \`)\` after the argument, found ${describeAt(text, parser.index)}; a tool call takes one object literal`,
      );
    }
    if (!isPlainObject(value)) {
      return failure(
        name,
        'not_an_object',
        `The call \`${name}(...)\` must take one object literal, got ${describe(value)}. Wrap the values in braces: \`${name}({ key: value })\`.`,
        false,
      );
    }
    return { ok: true, name, arguments: value as JsonObject, end: parser.index + 1 };
  } catch (error) {
    if (!(error instanceof LiteralSyntaxError)) {
      // Not expected from the parser's own rules, but model text must never escape as a throw.
      return failure(
        name,
        'invalid_syntax',
        `Could not read the call \`${name}(...)\` (${error instanceof Error ? error.message : String(error)}). Write the arguments as one object literal: \`${name}({ key: "value" })\`.`,
        false,
      );
    }
    const { line, column } = position(text, error.offset);
    return failure(
      name,
      'invalid_syntax',
      `Could not parse the call \`${name}(...)\`: ${error.detail} (line ${line}, column ${column}). Write the arguments as one object literal: \`${name}({ key: "value" })\`.`,
      error.incomplete,
    );
  }
}

function failure(
  name: string,
  reason: 'invalid_syntax' | 'not_an_object',
  message: string,
  incomplete: boolean,
): TextCallParse {
  return { ok: false, name, reason, message, incomplete };
}

/** 1-based line and column of `offset` (only computed for failures). */
function position(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (
    let index = text.indexOf('\n');
    index >= 0 && index < offset;
    index = text.indexOf('\n', index + 1)
  ) {
    line += 1;
    lineStart = index + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}
