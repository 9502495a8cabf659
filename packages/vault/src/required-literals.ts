/** Escapes that stand for one literal character (`\.` `\-` …); letters after `\` are classes. */
const ESCAPED_LITERAL = /[^A-Za-z0-9]/;
const QUANTIFIER = new Set(['*', '+', '?', '{']);
const MIN_LITERAL = 2;
const ASCII = /^[\x20-\x7e]+$/;

/**
 * Lower-case literal fragments a text must contain for `pattern` to match it: one list per
 * top-level alternative, or `undefined` when some alternative requires no literal (then every
 * text is a candidate). A prefilter only: the regex still decides.
 */
export function requiredLiterals(pattern: string): string[][] | undefined {
  const branches = splitTopLevel(pattern);
  const required: string[][] = [];
  for (const branch of branches) {
    const literals = branchLiterals(branch);
    if (literals.length === 0) return undefined;
    required.push(literals);
  }
  return required;
}

/** True when `text` (lower-case) holds every literal of some alternative. */
export function mayMatch(text: string, required: readonly (readonly string[])[]): boolean {
  return required.some((literals) => literals.every((literal) => text.includes(literal)));
}

function splitTopLevel(pattern: string): string[] {
  const branches: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i];
    if (char === '\\') i += 1;
    else if (inClass) inClass = char !== ']';
    else if (char === '[') inClass = true;
    else if (char === '(') depth += 1;
    else if (char === ')') depth -= 1;
    else if (char === '|' && depth === 0) {
      branches.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  branches.push(pattern.slice(start));
  return branches;
}

function branchLiterals(branch: string): string[] {
  const literals: string[] = [];
  let run = '';
  const flush = () => {
    // Only ASCII: lower-casing is then exactly the regex's case folding.
    if (run.length >= MIN_LITERAL && ASCII.test(run)) literals.push(run.toLowerCase());
    run = '';
  };
  for (let i = 0; i < branch.length; i += 1) {
    const char = branch[i] as string;
    let literal: string | undefined;
    if (char === '\\') {
      const next = branch[i + 1] ?? '';
      i += 1;
      if (ESCAPED_LITERAL.test(next)) literal = next;
    } else if (char === '{') {
      // A repetition count (`{2}`, `{1,3}`) is not text; a lone `{` is, but is left out.
      flush();
      const count = /^\{\d+(,\d*)?\}/.exec(branch.slice(i));
      if (count !== null) i += count[0].length - 1;
      continue;
    } else if (char === '(' || char === '[') {
      // A group or class is skipped whole: its content is not required as written.
      flush();
      i = skipGroup(branch, i);
      continue;
    } else if (!'.^$)]|'.includes(char) && !QUANTIFIER.has(char)) literal = char;
    const quantified = QUANTIFIER.has(branch[i + 1] ?? '');
    if (literal === undefined) {
      flush();
    } else if (quantified && branch[i + 1] !== '+') {
      flush(); // `x?`, `x*`, `x{0,…}`: the character may be absent.
    } else {
      run += literal;
      if (quantified) flush();
    }
  }
  flush();
  return literals;
}

/** Index of the bracket closing the group or class opened at `open` (or the end). */
function skipGroup(text: string, open: number): number {
  const isClass = text[open] === '[';
  let depth = 0;
  for (let i = open; i < text.length; i += 1) {
    const char = text[i];
    if (char === '\\') i += 1;
    else if (isClass ? char === ']' && i > open + 1 : char === ')' && --depth === 0) return i;
    else if (!isClass && char === '(') depth += 1;
  }
  return text.length;
}
