import { canonicalHash, sha256Hex } from '../../tools/canonical-json.js';
import { redactKeys } from './redact-keys.js';

/** What a value's canonical text had to leave out or stand in for; empty when nothing. */
export type CanonicalNotes = string[];

/** Most notes kept per value: a hostile value could otherwise make one per member. */
const MAX_NOTES = 8;

type Frame =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'value'; readonly value: unknown; readonly path: string }
  | { readonly kind: 'leave'; readonly container: object };

/**
 * Canonical JSON (keys sorted, no whitespace) of any value, with an explicit stack instead of
 * recursion, so no depth of nesting can overflow the call stack. For JSON values it gives exactly
 * the text of `canonicalJson`. What JSON cannot carry does not throw: a cycle becomes `"[cycle]"`,
 * a BigInt `"[bigint <digits>]"`, a `toJSON` or getter that throws `"[unreadable]"`, and each is
 * named in `notes` with its path (functions and symbols are dropped, as JSON.stringify drops them).
 * Keys in `redact` are left out at any depth.
 */
export function safeCanonicalJson(
  value: unknown,
  notes: CanonicalNotes,
  redact: ReadonlySet<string> = new Set(),
): string {
  const parts: string[] = [];
  const open = new Set<object>();
  const stack: Frame[] = [{ kind: 'value', value, path: '$' }];
  const note = (text: string) => {
    if (notes.length < MAX_NOTES) notes.push(text);
    else if (notes.length === MAX_NOTES) notes.push('… more left out');
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
    let current = frame.value;
    const { path } = frame;
    try {
      while (
        typeof current === 'object' &&
        current !== null &&
        typeof (current as { toJSON?: unknown }).toJSON === 'function'
      ) {
        const replaced: unknown = (current as { toJSON: () => unknown }).toJSON();
        if (replaced === current) break;
        current = replaced;
      }
    } catch {
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
        note(`${path}: BigInt`);
        parts.push(`"[bigint ${current.toString()}]"`);
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
      note(`${path}: cycle`);
      parts.push('"[cycle]"');
      continue;
    }
    open.add(container);
    const members: Frame[] = [];
    try {
      if (Array.isArray(container)) {
        for (let index = 0; index < container.length; index += 1) {
          if (index > 0) members.push({ kind: 'text', text: ',' });
          members.push({ kind: 'value', value: container[index], path: `${path}[${index}]` });
        }
        parts.push('[');
        members.push({ kind: 'text', text: ']' });
      } else {
        let first = true;
        for (const key of canonicalKeyOrder(Object.keys(container))) {
          if (redact.has(key)) continue;
          const member: unknown = (container as Record<string, unknown>)[key];
          const kind = typeof member;
          if (kind === 'undefined' || kind === 'function' || kind === 'symbol') {
            if (kind !== 'undefined') note(`${path}.${key}: ${kind} dropped`);
            continue;
          }
          members.push({ kind: 'text', text: `${first ? '' : ','}${JSON.stringify(key)}:` });
          members.push({ kind: 'value', value: member, path: `${path}.${key}` });
          first = false;
        }
        parts.push('{');
        members.push({ kind: 'text', text: '}' });
      }
    } catch {
      open.delete(container);
      note(`${path}: unreadable`);
      parts.push('"[unreadable]"');
      continue;
    }
    stack.push({ kind: 'leave', container });
    for (let index = members.length - 1; index >= 0; index -= 1) stack.push(members[index]!);
  }
  return parts.join('');
}

const INDEX_KEY = /^(?:0|[1-9]\d{0,9})$/;

/**
 * Keys in the order `canonicalJson` writes them: it copies sorted keys into a fresh object, whose
 * own keys then list array-index-like keys first, in numeric order, then the rest as sorted.
 */
function canonicalKeyOrder(keys: string[]): string[] {
  keys.sort();
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

/**
 * SHA-256 of a value's canonical JSON (keys in `redact` left out at any depth) for a receipt.
 * Plain JSON values take the fast path (`canonicalHash`); a value it cannot take (too deep, a
 * cycle, a BigInt) is hashed from `safeCanonicalJson` instead, and what stood in for what is
 * added to `notes`, each prefixed with `label`. Never throws.
 */
export function receiptValueHash(
  value: unknown,
  redact: ReadonlySet<string>,
  notes: CanonicalNotes,
  label: string,
): string {
  try {
    return canonicalHash(redactKeys(value, redact));
  } catch {
    const found: CanonicalNotes = [];
    const hash = sha256Hex(safeCanonicalJson(value, found, redact));
    // Too deep for the fast path but plain JSON: the same hash, and nothing to note.
    for (const note of found) notes.push(`${label} ${note}`);
    return hash;
  }
}
