/**
 * A small JSONPath subset evaluated without recursion: `$`, `.key`, `['key']`, `[index]` (negative
 * counts from the end), `[*]` and `.*`, and `..key` (every `key` at any depth). Keys are looked up
 * as own properties only, so `__proto__` or `constructor` are just names.
 */

type Step =
  | { readonly kind: 'key'; readonly key: string }
  | { readonly kind: 'index'; readonly index: number }
  | { readonly kind: 'wildcard' }
  | { readonly kind: 'descend'; readonly key: string };

const MAX_STEPS = 64;
const MAX_RESULTS = 10_000;
const STEP =
  /\.\.([A-Za-z_$][\w$-]*)|\.([A-Za-z_$][\w$-]*)|\.\*|\[\*\]|\[(-?\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/y;

function parse(path: string): Step[] {
  const text = path.trim();
  if (!text.startsWith('$')) throw new Error('a JSON path starts with "$"');
  const steps: Step[] = [];
  STEP.lastIndex = 1;
  while (STEP.lastIndex < text.length) {
    const at = STEP.lastIndex;
    const match = STEP.exec(text);
    if (match === null)
      throw new Error(`cannot read the path at ${at}: ${JSON.stringify(text.slice(at, at + 20))}`);
    const [whole, descend, key, index, single, double] = match;
    if (descend !== undefined) steps.push({ kind: 'descend', key: descend });
    else if (key !== undefined) steps.push({ kind: 'key', key });
    else if (index !== undefined) steps.push({ kind: 'index', index: Number(index) });
    else if (single !== undefined || double !== undefined) {
      steps.push({ kind: 'key', key: (single ?? double ?? '').replace(/\\(.)/g, '$1') });
    } else if (whole === '.*' || whole === '[*]') steps.push({ kind: 'wildcard' });
    if (steps.length > MAX_STEPS) throw new Error(`a JSON path has at most ${MAX_STEPS} steps`);
  }
  return steps;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function children(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  return isObject(value) ? Object.values(value) : [];
}

/** Every value at `key` anywhere below (and in) `value`, depth-first, with an explicit stack. */
function descendants(value: unknown, key: string, into: unknown[]): void {
  const stack: unknown[] = [value];
  while (stack.length > 0 && into.length < MAX_RESULTS) {
    const node = stack.pop();
    if (isObject(node) && Object.hasOwn(node, key)) into.push(node[key]);
    const next = children(node);
    for (let index = next.length - 1; index >= 0; index -= 1) stack.push(next[index]);
  }
}

/** The values `path` selects in `document`, in document order. Throws a plain `Error` for a bad path. */
export function queryJson(document: unknown, path: string): unknown[] {
  let current: unknown[] = [document];
  for (const step of parse(path)) {
    const next: unknown[] = [];
    for (const value of current) {
      if (step.kind === 'key') {
        if (isObject(value) && Object.hasOwn(value, step.key)) next.push(value[step.key]);
      } else if (step.kind === 'index') {
        if (Array.isArray(value)) {
          const index = step.index < 0 ? value.length + step.index : step.index;
          if (index >= 0 && index < value.length) next.push(value[index]);
        }
      } else if (step.kind === 'wildcard') {
        for (const child of children(value)) next.push(child);
      } else descendants(value, step.key, next);
      if (next.length > MAX_RESULTS)
        throw new Error(`a JSON path selects at most ${MAX_RESULTS} values`);
    }
    current = next;
  }
  return current;
}
