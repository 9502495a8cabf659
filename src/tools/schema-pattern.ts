import type { CodeOptions } from 'ajv';
import { translateEcmaPattern } from './ecma-pattern.js';
import { compileLinearRegex } from './linear-regex.js';

/** ajv's pluggable regular expression engine (`code.regExp`) and what it returns. */
type RegExpEngine = NonNullable<CodeOptions['regExp']>;
type RegExpLike = ReturnType<RegExpEngine>;

/**
 * Most program steps a schema pattern may take per character checked, as RE2 counts them: a
 * counted repeat copies its body, so `[a-z]{1,500}` needs ~1 000. Checking a string costs at most
 * this many steps per character, whatever the pattern (`bench/schema-validation.bench.ts`).
 */
export const MAX_PATTERN_SIZE = 1000;

/**
 * Compiles a JSON Schema `pattern` (or `patternProperties` key) for the linear-time engine, with
 * ECMAScript's meaning. Throws an `Error` saying what is wrong for a pattern ECMAScript refuses,
 * for one no linear-time engine can run (backreferences, lookaround) and for one larger than
 * `MAX_PATTERN_SIZE`.
 */
export function compileSchemaPattern(pattern: string): RegExpLike {
  const refuse = (reason: string): never => {
    throw new Error(`pattern ${JSON.stringify(pattern)} is refused: ${reason}`);
  };
  try {
    // Parsed only, never run: whether the pattern is valid ECMAScript, as JSON Schema requires.
    new RegExp(pattern, 'u');
  } catch (error) {
    refuse((error as Error).message);
  }
  let translated: ReturnType<typeof translateEcmaPattern>;
  try {
    translated = translateEcmaPattern(pattern);
  } catch (error) {
    return refuse(`${(error as Error).message}; JSON Schema patterns run on a linear-time engine`);
  }
  if (translated.size > MAX_PATTERN_SIZE) {
    refuse(
      `it needs ~${translated.size} steps per character checked, above the ${MAX_PATTERN_SIZE} allowed (a counted repeat copies its body: prefer minLength/maxLength)`,
    );
  }
  let compiled: ReturnType<typeof compileLinearRegex>;
  try {
    compiled = compileLinearRegex(translated.source);
  } catch (error) {
    return refuse((error as Error).message);
  }
  // ajv shares one compiled pattern among the places that use it, keyed by `toString()`.
  const matcher: RegExpLike & { toString(): string } = {
    test: (text) => compiled.test(text),
    toString: () => `/${pattern}/u`,
  };
  return matcher;
}

/**
 * ajv's `code.regExp` engine over `compileSchemaPattern`: `pattern`, `patternProperties` and
 * `additionalProperties` beside them all run in time linear in the text. Each pattern is compiled
 * once per engine. `code` names it in generated standalone code, which Switchyard never emits.
 */
export function linearRegExpEngine(): RegExpEngine {
  const compiled = new Map<string, RegExpLike>();
  const engine = (pattern: string): RegExpLike => {
    let found = compiled.get(pattern);
    if (found === undefined) {
      found = compileSchemaPattern(pattern);
      compiled.set(pattern, found);
    }
    return found;
  };
  return Object.assign(engine, { code: 'switchyard/linear-pattern' });
}
