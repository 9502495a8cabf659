import { InvalidArgumentError } from '../errors.js';

/**
 * Which canonical form: `2` is RFC 8785 (JSON Canonicalization Scheme), whose object keys are
 * sorted by UTF-16 code units; `1` is the form Switchyard used before it, which writes keys that
 * look like array indexes (`"0"` to `"4294967294"`) first, in numeric order, then the rest sorted
 * by UTF-16 code units. The two differ only for objects with such keys.
 */
export type CanonicalVersion = 1 | 2;

/** How `writeJson` writes a value. */
export interface JsonWriteOptions {
  /**
   * Sort object keys into this canonical form. Default: keys in their own order, as
   * JSON.stringify writes them.
   */
  readonly canonical?: CanonicalVersion;
  /** Keys left out at any depth. Default: none. */
  readonly redact?: ReadonlySet<string>;
  /**
   * Where to name what JSON cannot carry, with its path: given, a cycle is written `"[cycle]"`,
   * a BigInt `"[bigint <digits>]"`, a `toJSON` or getter that throws `"[unreadable]"`, and a
   * dropped function or symbol is noted too. Absent, those throw (cycles and BigInts an
   * `InvalidArgumentError`, a throwing `toJSON` or getter its own error).
   */
  readonly notes?: string[];
}

/** Most notes kept per value: a hostile value could otherwise make one per member. */
const MAX_NOTES = 8;

type Frame =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'value'; readonly value: unknown; readonly path: string }
  | { readonly kind: 'leave'; readonly container: object };

/**
 * JSON text (no whitespace, numbers and strings as JSON.stringify writes them, which is how
 * RFC 8785 writes them; keys sorted when `canonical` is set) of any value, with an explicit stack
 * instead of recursion, so no depth of nesting can overflow the call stack. `undefined`, functions
 * and symbols are dropped from objects and written `null` in arrays, and non-finite numbers are
 * `null`, as JSON.stringify does. Slower than JSON.stringify: use it where a value may be anything a
 * tool returned (the CLI writes results with it when JSON.stringify throws).
 *
 * @throws InvalidArgumentError for a cycle or a BigInt, and a throwing `toJSON` or getter's own
 * error, unless `notes` is given (then they are written as stand-ins and named there).
 * @example
 * writeJson({ n: 10n }, { notes: [] }); // '{"n":"[bigint 10]"}'
 */
export function writeJson(value: unknown, options: JsonWriteOptions = {}): string {
  const { notes, redact } = options;
  const parts: string[] = [];
  const open = new Set<object>();
  const stack: Frame[] = [{ kind: 'value', value, path: '$' }];
  const note = (text: string) => {
    if (notes === undefined) return;
    if (notes.length < MAX_NOTES) notes.push(text);
    else if (notes.length === MAX_NOTES) notes.push('… more left out');
  };
  const unwritable = (text: string, standIn: string) => {
    if (notes === undefined) throw new InvalidArgumentError('value', `canonicalJson: ${text}`);
    note(text);
    parts.push(standIn);
  };
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.kind === 'text') {
      parts.push(frame.text);
      continue;
    }
    if (frame.kind === 'leave') {
      open.delete(frame.container);
      continue;
    }
    const { path } = frame;
    let current: unknown;
    try {
      current = replacedByToJson(frame.value);
    } catch (error) {
      if (notes === undefined) throw error;
      note(`${path}: toJSON threw`);
      parts.push('"[unreadable]"');
      continue;
    }
    switch (typeof current) {
      case 'string':
      case 'boolean':
        parts.push(JSON.stringify(current));
        continue;
      case 'number':
        parts.push(Number.isFinite(current) ? JSON.stringify(current) : 'null');
        continue;
      case 'bigint':
        unwritable(`${path}: BigInt`, `"[bigint ${current.toString()}]"`);
        continue;
      case 'undefined':
      case 'function':
      case 'symbol':
        if (typeof current !== 'undefined') note(`${path}: ${typeof current} dropped`);
        parts.push('null'); // only reached in arrays and at the top: objects skip these members
        continue;
    }
    if (current === null) {
      parts.push('null');
      continue;
    }
    const container = current as object;
    if (open.has(container)) {
      unwritable(`${path}: cycle`, '"[cycle]"');
      continue;
    }
    let members: Frame[];
    try {
      members = Array.isArray(container)
        ? arrayMembers(container, path)
        : objectMembers(
            container as Record<string, unknown>,
            path,
            options.canonical,
            redact,
            note,
          );
    } catch (error) {
      if (notes === undefined) throw error;
      note(`${path}: unreadable`);
      parts.push('"[unreadable]"');
      continue;
    }
    open.add(container);
    parts.push(Array.isArray(container) ? '[' : '{');
    stack.push({ kind: 'leave', container });
    for (let index = members.length - 1; index >= 0; index -= 1) stack.push(members[index]!);
  }
  return parts.join('');
}

/** The value after its `toJSON`s, as JSON.stringify would write it. */
function replacedByToJson(value: unknown): unknown {
  let current = value;
  while (
    typeof current === 'object' &&
    current !== null &&
    typeof (current as { toJSON?: unknown }).toJSON === 'function'
  ) {
    const replaced: unknown = (current as { toJSON: () => unknown }).toJSON();
    if (replaced === current) break;
    current = replaced;
  }
  return current;
}

function arrayMembers(array: readonly unknown[], path: string): Frame[] {
  const members: Frame[] = [];
  for (let index = 0; index < array.length; index += 1) {
    if (index > 0) members.push({ kind: 'text', text: ',' });
    members.push({ kind: 'value', value: array[index], path: `${path}[${index}]` });
  }
  members.push({ kind: 'text', text: ']' });
  return members;
}

function objectMembers(
  object: Record<string, unknown>,
  path: string,
  canonical: CanonicalVersion | undefined,
  redact: ReadonlySet<string> | undefined,
  note: (text: string) => void,
): Frame[] {
  const members: Frame[] = [];
  let first = true;
  const keys = Object.keys(object);
  for (const key of canonical === undefined ? keys : canonicalKeyOrder(keys, canonical)) {
    if (redact?.has(key)) continue;
    const member = object[key];
    const kind = typeof member;
    if (kind === 'undefined' || kind === 'function' || kind === 'symbol') {
      if (kind !== 'undefined') note(`${path}.${key}: ${kind} dropped`);
      continue;
    }
    members.push({ kind: 'text', text: `${first ? '' : ','}${JSON.stringify(key)}:` });
    members.push({ kind: 'value', value: member, path: `${path}.${key}` });
    first = false;
  }
  members.push({ kind: 'text', text: '}' });
  return members;
}

const INDEX_KEY = /^(?:0|[1-9]\d{0,9})$/;

/**
 * Keys in canonical order. `Array#sort` compares UTF-16 code units, as RFC 8785 asks; version 1
 * then moved array-index-like keys to the front in numeric order, as a fresh object lists them.
 */
function canonicalKeyOrder(keys: string[], version: CanonicalVersion): string[] {
  keys.sort();
  if (version === 2) return keys;
  const indexes: string[] = [];
  const names: string[] = [];
  for (const key of keys) {
    if (INDEX_KEY.test(key) && Number(key) < 2 ** 32 - 1) indexes.push(key);
    else names.push(key);
  }
  if (indexes.length === 0) return names;
  indexes.sort((left, right) => Number(left) - Number(right));
  return [...indexes, ...names];
}
