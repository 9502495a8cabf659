/** Replaces the values of injected secrets wherever a tool's output quotes them. */
export interface SecretScrubber {
  /** `text` with every secret value replaced by `[redacted:<NAME>]`. */
  text(text: string): string;
  /**
   * `value` with every secret removed from its strings and keys: the value itself when none is
   * there (the common case), else a plain-data copy (class instances become plain objects, cycles
   * and shared parts are kept). Walks without recursion, so any depth is safe.
   */
  value(value: unknown): unknown;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A scrubber for the given secrets, or null when there are none. Each non-empty value is matched
 * as written and as it appears inside JSON text (escaped); the longest match wins.
 */
export function createSecretScrubber(
  secrets: Readonly<Record<string, string>> | undefined,
): SecretScrubber | null {
  if (secrets === undefined || secrets === null) return null;
  const markerOf = new Map<string, string>();
  for (const [name, secret] of Object.entries(secrets)) {
    if (typeof secret !== 'string' || secret === '') continue;
    const marker = `[redacted:${name}]`;
    markerOf.set(secret, marker);
    const escaped = JSON.stringify(secret).slice(1, -1);
    if (escaped !== secret && !markerOf.has(escaped)) markerOf.set(escaped, marker);
  }
  if (markerOf.size === 0) return null;
  const forms = [...markerOf.keys()].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(forms.map(escapeRegExp).join('|'), 'g');
  const detect = new RegExp(pattern.source);
  const text = (input: string): string =>
    detect.test(input) ? input.replace(pattern, (found) => markerOf.get(found) ?? found) : input;
  return {
    text,
    value: (value) => (holdsSecret(value, detect) ? scrubbedCopy(value, text) : value),
  };
}

/** Whether any string or key inside `root` matches. Unreadable values count as holding one. */
function holdsSecret(root: unknown, detect: RegExp): boolean {
  const pending: unknown[] = [root];
  const seen = new Set<object>();
  try {
    for (let index = 0; index < pending.length; index += 1) {
      const value = pending[index];
      pending[index] = undefined;
      if (typeof value === 'string') {
        if (detect.test(value)) return true;
        continue;
      }
      if (typeof value !== 'object' || value === null || seen.has(value)) continue;
      seen.add(value);
      if (Array.isArray(value)) {
        for (const item of value) pending.push(item);
        continue;
      }
      const toJson = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJson === 'function') pending.push(toJson.call(value));
      for (const key of Object.keys(value)) {
        if (detect.test(key)) return true;
        pending.push((value as Record<string, unknown>)[key]);
      }
    }
  } catch {
    // A getter or `toJSON` that throws: copy what can be read, scrubbing it.
    return true;
  }
  return false;
}

/** A plain-data copy of `root` with `scrub` applied to every string and key. */
function scrubbedCopy(root: unknown, scrub: (text: string) => string): unknown {
  const copies = new Map<object, unknown>();
  const work: [source: object, target: unknown[] | Record<string, unknown>][] = [];
  const copyOf = (value: unknown): unknown => {
    if (typeof value === 'string') return scrub(value);
    if (typeof value !== 'object' || value === null) return value;
    const existing = copies.get(value);
    if (existing !== undefined) return existing;
    let source: unknown = value;
    try {
      const toJson = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJson === 'function') source = toJson.call(value);
    } catch {
      source = '[unreadable value]';
    }
    if (typeof source !== 'object' || source === null) {
      const plain = copyOf(source);
      copies.set(value, plain);
      return plain;
    }
    const target: unknown[] | Record<string, unknown> = Array.isArray(source) ? [] : {};
    copies.set(value, target);
    work.push([source, target]);
    return target;
  };
  const top = copyOf(root);
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    const [source, target] = item;
    try {
      if (Array.isArray(source) && Array.isArray(target)) {
        for (const element of source) target.push(copyOf(element));
        continue;
      }
      for (const key of Object.keys(source)) {
        // Defined, not assigned: a `__proto__` key stays plain data.
        Object.defineProperty(target, scrub(key), {
          value: copyOf((source as Record<string, unknown>)[key]),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    } catch {
      // What could not be read stays out of the copy.
    }
  }
  return top;
}
