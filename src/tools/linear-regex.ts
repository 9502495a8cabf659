import { createRequire } from 'node:module';
import type { RE2JS as Re2Engine } from 're2js';

const require = createRequire(import.meta.url);

/**
 * re2js, loaded on first use (Node caches it): a few tens of ms that importing the root should not
 * pay, since most programs compile no schema pattern. ajv compiles synchronously, so the engine is
 * required (its CommonJS build) rather than imported.
 */
function re2(): typeof Re2Engine {
  return (require('re2js') as { RE2JS: typeof Re2Engine }).RE2JS;
}

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

/** The engine's bit for each JavaScript flag it takes. */
function flagBit(RE2JS: typeof Re2Engine, flag: string): number | undefined {
  if (flag === 'i') return RE2JS.CASE_INSENSITIVE;
  if (flag === 'm') return RE2JS.MULTILINE;
  if (flag === 's') return RE2JS.DOTALL;
  return undefined;
}

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
  const RE2JS = re2();
  let bits = 0;
  for (const flag of flags) {
    if (flag === 'u' || flag === 'g') continue;
    const bit = flagBit(RE2JS, flag);
    if (bit === undefined) throw new Error(`unsupported regex flag ${JSON.stringify(flag)}`);
    bits |= bit;
  }
  let compiled: Re2Engine;
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
  return re2().quote(text);
}
