import { isTagChar } from './text-chars.js';

// Lexical states. Every state can stop at any character and resume with the next chunk, so a
// call is scanned once, chunk by chunk, however it was split.
const CODE = 0;
const STRING = 1;
const STRING_ESCAPE = 2;
const SLASH = 3; // after `/`: maybe a comment
const LINE_COMMENT = 4;
const BLOCK_COMMENT = 5;
const BLOCK_STAR = 6; // after `*` in a block comment
const LESS = 7; // after `<`: maybe a heredoc or the closing tag
const HEREDOC_OPEN = 8; // after `<<`
const HEREDOC_TAG = 9;
const HEREDOC_OPENER_END = 10; // after the tag: the line break comes next
const HEREDOC_LINE_START = 11;
const HEREDOC_TAG_MATCH = 12; // the line so far is indentation plus a prefix of the tag
const HEREDOC_TAG_BOUNDARY = 13; // the whole tag matched: it closes unless a tag character follows
const HEREDOC_LINE_REST = 14;
const CLOSE_TAG = 15; // matching the closing tag of a tagged block

/**
 * Finds where a text-mode call ends while it streams, without parsing it: strings, comments and
 * heredoc bodies are skipped with the same rules as the parser, so a `)` or `</tool_call>`
 * inside an argument never ends the call. A bare call ends at the `)` that balances its `(`;
 * a tagged block ends at its closing tag. The parser then runs once on the complete text.
 */
export class CallScanner {
  private state = CODE;
  /** Open brackets of any kind; a bare call starts inside its `(`. */
  private depth: number;
  /** The quote of the string being read. */
  private quote = 0;
  /** The heredoc tag being read or waited for. */
  private tag = '';
  /** The quote around the heredoc tag, or 0. */
  private tagQuote = 0;
  /** Characters of the heredoc tag or closing tag matched so far. */
  private matched = 0;

  private constructor(
    private readonly closeTag: string | undefined,
    depth: number,
  ) {
    this.depth = depth;
  }

  /** A scanner positioned just after the `(` of `name(`. */
  static forBareCall(): CallScanner {
    return new CallScanner(undefined, 1);
  }

  /** A scanner positioned just after an opening tag, looking for `closeTag`. */
  static forTaggedBlock(closeTag: string): CallScanner {
    return new CallScanner(closeTag, 0);
  }

  /** Scans `text` from `from`: the index just past the call's end, or -1 if it goes on. */
  scan(text: string, from: number): number {
    const length = text.length;
    let index = from;
    while (index < length) {
      const code = text.charCodeAt(index);
      switch (this.state) {
        case CODE:
          if (code === 0x22 || code === 0x27 || code === 0x60) {
            this.quote = code;
            this.state = STRING;
          } else if (code === 0x2f) {
            this.state = SLASH;
          } else if (code === 0x3c) {
            this.state = LESS;
          } else if (code === 0x28 || code === 0x5b || code === 0x7b) {
            this.depth += 1;
          } else if (code === 0x29 || code === 0x5d || code === 0x7d) {
            this.depth -= 1;
            if (this.depth === 0 && this.closeTag === undefined) return index + 1;
          }
          index += 1;
          break;
        case STRING:
          index = this.skipString(text, index);
          break;
        case STRING_ESCAPE:
          this.state = STRING;
          index += 1;
          break;
        case SLASH:
          if (code === 0x2f) this.state = LINE_COMMENT;
          else if (code === 0x2a) this.state = BLOCK_COMMENT;
          else this.state = CODE;
          if (this.state !== CODE) index += 1;
          break;
        case LINE_COMMENT:
          index = this.skipLine(text, index, CODE);
          break;
        case BLOCK_COMMENT: {
          const star = text.indexOf('*', index);
          if (star < 0) return -1;
          this.state = BLOCK_STAR;
          index = star + 1;
          break;
        }
        case BLOCK_STAR:
          if (code === 0x2f) this.state = CODE;
          else if (code !== 0x2a) this.state = BLOCK_COMMENT;
          index += 1;
          break;
        case LESS:
          index = this.afterLess(code, index);
          break;
        case CLOSE_TAG: {
          const closeTag = this.closeTag ?? '';
          if (code !== closeTag.charCodeAt(this.matched)) {
            this.state = CODE;
            break;
          }
          this.matched += 1;
          index += 1;
          if (this.matched === closeTag.length) {
            this.state = CODE;
            return index;
          }
          break;
        }
        default:
          index = this.scanHeredoc(text, index, code);
      }
    }
    return -1;
  }

  private skipString(text: string, from: number): number {
    const { quote } = this;
    let index = from;
    while (index < text.length) {
      const code = text.charCodeAt(index);
      index += 1;
      if (code === quote) {
        this.state = CODE;
        return index;
      }
      if (code === 0x5c) {
        this.state = STRING_ESCAPE;
        return index;
      }
    }
    return index;
  }

  /** Skips to the next line break; the state after it is `next`. */
  private skipLine(text: string, from: number, next: number): number {
    const lineEnd = text.indexOf('\n', from);
    if (lineEnd < 0) return text.length;
    this.state = next;
    return lineEnd + 1;
  }

  private afterLess(code: number, index: number): number {
    if (code === 0x3c) {
      this.state = HEREDOC_OPEN;
      this.tag = '';
      this.tagQuote = 0;
      return index + 1;
    }
    if (code === 0x2f && this.closeTag !== undefined) {
      this.state = CLOSE_TAG;
      this.matched = 2;
      return index + 1;
    }
    this.state = CODE;
    return index;
  }

  /** The heredoc states; returns where scanning resumes. */
  private scanHeredoc(text: string, index: number, code: number): number {
    switch (this.state) {
      case HEREDOC_OPEN:
        if (code === 0x27 || code === 0x22) this.tagQuote = code;
        else if (isTagChar(code)) this.tag = text[index]!;
        else {
          this.state = CODE;
          return index;
        }
        this.state = HEREDOC_TAG;
        return index + 1;
      case HEREDOC_TAG:
        if (isTagChar(code)) {
          this.tag += text[index]!;
          return index + 1;
        }
        if (this.tag === '') {
          this.state = CODE;
          return index;
        }
        this.state = HEREDOC_OPENER_END;
        return this.tagQuote !== 0 && code === this.tagQuote ? index + 1 : index;
      case HEREDOC_OPENER_END:
        if (code === 0x0a) this.state = HEREDOC_LINE_START;
        else if (code !== 0x0d) {
          this.state = CODE;
          return index;
        }
        return index + 1;
      case HEREDOC_LINE_START:
        if (code === 0x20 || code === 0x09 || code === 0x0a) return index + 1;
        return this.matchTag(code, 0, index);
      case HEREDOC_TAG_MATCH:
        if (code === 0x0a) {
          this.state = HEREDOC_LINE_START;
          return index + 1;
        }
        return this.matchTag(code, this.matched, index);
      case HEREDOC_TAG_BOUNDARY:
        this.state = isTagChar(code) ? HEREDOC_LINE_REST : CODE;
        return index;
      default:
        return this.skipLine(text, index, HEREDOC_LINE_START);
    }
  }

  /** `code` at `index` is character `matched` of the tag, or the line is body text. */
  private matchTag(code: number, matched: number, index: number): number {
    if (code !== this.tag.charCodeAt(matched)) {
      this.state = HEREDOC_LINE_REST;
      return index;
    }
    this.matched = matched + 1;
    this.state = this.matched === this.tag.length ? HEREDOC_TAG_BOUNDARY : HEREDOC_TAG_MATCH;
    return index + 1;
  }
}
