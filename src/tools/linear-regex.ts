import { RE2JS } from 're2js';

/** A pattern compiled for a linear-time engine (RE2 semantics: no backreferences, no lookaround). */
export interface LinearRegex {
  /** Every non-overlapping match, at most `limit`. */
  matchAll(text: string, limit: number): LinearMatch[];
  /** True when the pattern matches anywhere in `text`. */
  test(text: string): boolean;
}

/** One match: the text, its UTF-16 index, positional groups and named groups. */
export interface LinearMatch {
  readonly match: string;
  readonly index: number;
  readonly groups: readonly (string | null)[];
  readonly named: Readonly<Record<string, string | null>> | null;
}

const FLAG_BITS: Readonly<Record<string, number>> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
};

/** JavaScript's named groups `(?<name>` in RE2's spelling `(?P<name>`; an escaped `\(` stays. */
function toRe2Syntax(pattern: string): string {
  return pattern.replace(/(\\*)\(\?<(?=[A-Za-z_])/g, (whole, slashes: string) =>
    slashes.length % 2 === 0 ? `${slashes}(?P<` : whole,
  );
}

/**
 * Compiles `pattern` for matching in time linear in the text, whatever the pattern: `^(a+)+$`
 * cannot backtrack. Flags `i`, `m`, `s` (and `u`, always on) as in JavaScript; JavaScript's
 * `(?<name>…)` groups are accepted. Throws a plain `Error` (a tool error) for a pattern RE2 rejects.
 */
export function compileLinearRegex(pattern: string, flags = ''): LinearRegex {
  let bits = 0;
  for (const flag of flags) {
    if (flag === 'u' || flag === 'g') continue;
    const bit = Object.hasOwn(FLAG_BITS, flag) ? FLAG_BITS[flag] : undefined;
    if (bit === undefined) throw new Error(`unsupported regex flag ${JSON.stringify(flag)}`);
    bits |= bit;
  }
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(toRe2Syntax(pattern), bits);
  } catch (error) {
    throw new Error(`invalid regular expression: ${(error as Error).message}`);
  }
  return {
    test: (text) => compiled.test(text),
    matchAll(text, limit) {
      const matches: LinearMatch[] = [];
      if (limit <= 0) return matches;
      for (const found of compiled.matchAll(text)) {
        const groups = found.slice(1).map((group) => group ?? null);
        const named = found.groups === undefined ? null : { ...found.groups };
        matches.push({ match: found[0], index: found.index ?? 0, groups, named });
        if (matches.length >= limit) break;
      }
      return matches;
    },
  };
}

/** Escapes `text` so it matches itself literally. */
export function quoteLiteral(text: string): string {
  return RE2JS.quote(text);
}
