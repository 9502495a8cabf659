import {
  ANY_CHARACTER,
  codePoint,
  DOT,
  escapeSet,
  NO_CHARACTER,
  propertySet,
} from './pattern-sets.js';

/** An ECMAScript pattern in RE2 syntax, and how large a program RE2 makes of it. */
export interface TranslatedPattern {
  readonly source: string;
  /**
   * About how many instructions RE2 compiles the pattern to (a counted repeat copies its body):
   * checking a string costs at most this many steps per character.
   */
  readonly size: number;
}

/** Deepest group nesting read (RE2 itself refuses past 1000). */
const MAX_DEPTH = 500;
/** Largest repeat count RE2 accepts. */
const MAX_REPEAT = 1000;
const SYNTAX_CHARACTERS = new Set('^$\\.*+?()[]{}|/');
const CONTROL_ESCAPES: Readonly<Record<string, number>> = { f: 12, n: 10, r: 13, t: 9, v: 11 };
/** Characters RE2 reads as themselves outside and inside classes; all others are spelled `\x{…}`. */
const PLAIN = /^[A-Za-z0-9 _]$/u;

function literal(character: string): string {
  return PLAIN.test(character) ? character : codePoint(character.codePointAt(0)!);
}

/** One class member or atom: a single code point, or a set already written as class contents. */
type Piece = { readonly point: number } | { readonly set: string };

/**
 * Rewrites a JSON Schema pattern (ECMAScript syntax with the `u` flag, which the caller has already
 * parsed with `new RegExp(pattern, 'u')`) in RE2 syntax with ECMAScript's meaning: `\s`, `.`,
 * `\d`, `\w`, `\p{…}` and every escape spelled out. Throws an `Error` saying why for what no
 * linear-time engine can run (backreferences, lookahead, lookbehind), for inline modifiers, for
 * repeat counts above 1000 and for nesting deeper than 500 groups.
 */
export function translateEcmaPattern(pattern: string): TranslatedPattern {
  const reader = new PatternReader(Array.from(pattern));
  const translated = reader.disjunction(0);
  if (!reader.atEnd()) throw new Error(`unbalanced ")" at ${reader.index}`);
  return translated;
}

class PatternReader {
  index = 0;

  constructor(private readonly chars: readonly string[]) {}

  atEnd(): boolean {
    return this.index >= this.chars.length;
  }

  private peek(offset = 0): string | undefined {
    return this.chars[this.index + offset];
  }

  private next(): string {
    const character = this.chars[this.index];
    if (character === undefined) throw new Error('the pattern ends inside a construct');
    this.index += 1;
    return character;
  }

  private lookingAt(text: string): boolean {
    return Array.from(text).every((character, offset) => this.peek(offset) === character);
  }

  disjunction(depth: number): TranslatedPattern {
    const alternatives: TranslatedPattern[] = [this.alternative(depth)];
    while (this.peek() === '|') {
      this.index += 1;
      alternatives.push(this.alternative(depth));
    }
    const size = alternatives.reduce((sum, next) => sum + next.size, alternatives.length - 1);
    return { source: alternatives.map((part) => part.source).join('|'), size };
  }

  private alternative(depth: number): TranslatedPattern {
    let source = '';
    let size = 0;
    while (!this.atEnd() && this.peek() !== '|' && this.peek() !== ')') {
      const term = this.term(depth);
      source += term.source;
      size += term.size;
    }
    return { source, size };
  }

  private term(depth: number): TranslatedPattern {
    const character = this.peek();
    if (character === '^' || character === '$') {
      this.index += 1;
      return { source: character, size: 1 };
    }
    if (character === '\\' && (this.peek(1) === 'b' || this.peek(1) === 'B')) {
      this.index += 2;
      return { source: `\\${this.chars[this.index - 1]}`, size: 1 };
    }
    return this.quantified(this.atom(depth));
  }

  private atom(depth: number): TranslatedPattern {
    const character = this.next();
    if (character === '(') return this.group(depth);
    if (character === '[') return { source: this.characterClass(), size: 1 };
    if (character === '.') return { source: DOT, size: 1 };
    if (character !== '\\') return { source: literal(character), size: 1 };
    const piece = this.escape(false);
    if ('point' in piece) return { source: codePoint(piece.point), size: 1 };
    return { source: piece.set === '' ? NO_CHARACTER : `[${piece.set}]`, size: 1 };
  }

  private group(depth: number): TranslatedPattern {
    if (depth >= MAX_DEPTH) throw new Error(`groups nest deeper than ${MAX_DEPTH}`);
    if (this.lookingAt('?=') || this.lookingAt('?!')) {
      throw new Error('lookahead ("(?=", "(?!") has no linear-time equivalent');
    }
    if (this.lookingAt('?<=') || this.lookingAt('?<!')) {
      throw new Error('lookbehind ("(?<=", "(?<!") has no linear-time equivalent');
    }
    if (this.lookingAt('?<')) {
      while (this.next() !== '>') {
        // the group's name: captures do not change whether a string matches
      }
    } else if (this.lookingAt('?:')) {
      this.index += 2;
    } else if (this.peek() === '?') {
      throw new Error('inline modifiers ("(?i:") are not supported');
    }
    const inner = this.disjunction(depth + 1);
    if (this.next() !== ')') throw new Error('a group does not close');
    return { source: `(?:${inner.source})`, size: inner.size };
  }

  /** Reads a quantifier after an atom, if any; a lazy `?` changes nothing a test can see. */
  private quantified(atom: TranslatedPattern): TranslatedPattern {
    const character = this.peek();
    let bounds: [number, number | undefined];
    if (character === '*') bounds = [0, undefined];
    else if (character === '+') bounds = [1, undefined];
    else if (character === '?') bounds = [0, 1];
    else if (character === '{') bounds = this.counted();
    else return atom;
    if (character !== '{') this.index += 1;
    if (this.peek() === '?') this.index += 1;
    const [low, high] = bounds;
    const suffix =
      character === '{' ? `{${low}${high === low ? '' : `,${high ?? ''}`}}` : character;
    // RE2 copies the body `low` times, then adds an optional copy (or a loop) per extra repeat.
    const size =
      low * atom.size + (high === undefined ? atom.size + 1 : (high - low) * (atom.size + 1));
    return { source: `${atom.source}${suffix}`, size };
  }

  private counted(): [number, number | undefined] {
    this.index += 1;
    const low = this.digits();
    let high: number | undefined = low;
    if (this.peek() === ',') {
      this.index += 1;
      high = this.peek() === '}' ? undefined : this.digits();
    }
    this.next(); // '}'
    if (low > MAX_REPEAT || (high ?? 0) > MAX_REPEAT) {
      throw new Error(`a repeat count above ${MAX_REPEAT} (use minLength/maxLength for lengths)`);
    }
    return [low, high];
  }

  private digits(): number {
    let text = '';
    while (/^[0-9]$/.test(this.peek() ?? '')) text += this.next();
    return Number(text);
  }

  /** After `[`: the class in RE2 syntax, every member spelled out. */
  private characterClass(): string {
    const negated = this.peek() === '^';
    if (negated) this.index += 1;
    let items = '';
    while (this.peek() !== ']') {
      const first = this.classAtom();
      if (this.peek() === '-' && this.peek(1) !== ']' && 'point' in first) {
        this.index += 1;
        const last = this.classAtom();
        if (!('point' in last)) throw new Error('a class range ends in a class escape');
        items += `${codePoint(first.point)}-${codePoint(last.point)}`;
      } else {
        items += 'point' in first ? codePoint(first.point) : first.set;
      }
    }
    this.index += 1;
    if (items === '') return negated ? ANY_CHARACTER : NO_CHARACTER;
    return `[${negated ? '^' : ''}${items}]`;
  }

  private classAtom(): Piece {
    const character = this.next();
    if (character !== '\\') return { point: character.codePointAt(0)! };
    return this.escape(true);
  }

  /** After `\`: a code point, or a set of them. */
  private escape(inClass: boolean): Piece {
    const character = this.next();
    if ('dDwWsS'.includes(character)) return { set: escapeSet(character) };
    if (character === 'p' || character === 'P') return { set: this.property(character === 'P') };
    if (/^[1-9]$/.test(character) || character === 'k') {
      throw new Error('backreferences ("\\1", "\\k<name>") have no linear-time equivalent');
    }
    if (Object.hasOwn(CONTROL_ESCAPES, character)) return { point: CONTROL_ESCAPES[character]! };
    if (character === '0') return { point: 0 };
    if (character === 'b' && inClass) return { point: 8 };
    if (character === 'c') return { point: this.next().codePointAt(0)! % 32 };
    if (character === 'x') return { point: this.hex(2) };
    if (character === 'u') return { point: this.unicodeEscape() };
    if (SYNTAX_CHARACTERS.has(character) || (inClass && character === '-')) {
      return { point: character.codePointAt(0)! };
    }
    throw new Error(`the escape "\\${character}" is not an ECMAScript escape`);
  }

  private property(negated: boolean): string {
    this.next(); // '{'
    let name = '';
    for (let character = this.next(); character !== '}'; character = this.next()) name += character;
    return propertySet(name, negated);
  }

  private hex(count: number): number {
    let text = '';
    for (let read = 0; read < count; read += 1) text += this.next();
    return Number.parseInt(text, 16);
  }

  /** `\u{…}`, `\uXXXX`, or a surrogate pair written as two `\uXXXX`. */
  private unicodeEscape(): number {
    if (this.peek() === '{') {
      this.index += 1;
      let text = '';
      for (let character = this.next(); character !== '}'; character = this.next())
        text += character;
      return Number.parseInt(text, 16);
    }
    const lead = this.hex(4);
    if (lead >= 0xd800 && lead <= 0xdbff && this.lookingAt('\\u') && this.peek(2) !== '{') {
      const start = this.index;
      this.index += 2;
      const trail = this.hex(4);
      if (trail >= 0xdc00 && trail <= 0xdfff) {
        return 0x10000 + ((lead - 0xd800) << 10) + (trail - 0xdc00);
      }
      this.index = start;
    }
    return lead;
  }
}
