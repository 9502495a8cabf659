import { isIndent, isTagChar } from './text-chars.js';

/** A heredoc value read from the text, or why it could not be. */
export type HeredocRead =
  | { readonly ok: true; readonly value: string; readonly end: number }
  | {
      readonly ok: false;
      readonly detail: string;
      readonly offset: number;
      /** The text ended inside the heredoc: more text could still close it. */
      readonly incomplete: boolean;
    };

const NEWLINE = 0x0a;

/**
 * Reads the heredoc starting at `start` (on its `<<`): `<<TAG` (the tag may be quoted with `'`
 * or `"`), a line break, the body, then a line that starts — after spaces or tabs — with the
 * whole tag (`TAGX` does not close `TAG`). The value is the body without the line break before
 * the closing line; reading resumes right after the closing tag, on the same line. The call
 * scanner applies the same rules while the call streams.
 */
export function readHeredoc(text: string, start: number): HeredocRead {
  let index = start + 2;
  const quote = text.charCodeAt(index);
  const quoted = quote === 0x27 || quote === 0x22;
  if (quoted) index += 1;
  const tagStart = index;
  while (index < text.length && isTagChar(text.charCodeAt(index))) index += 1;
  if (index >= text.length) return failure('a heredoc opener is cut short', start, true);
  if (index === tagStart) {
    return failure('`<<` must be followed by a heredoc tag, as in <<EOF', start, false);
  }
  const tag = text.slice(tagStart, index);
  if (quoted && text.charCodeAt(index) === quote) index += 1;
  if (text.charCodeAt(index) === 0x0d) index += 1;
  if (index >= text.length) return failure(`the heredoc <<${tag} has no body yet`, start, true);
  if (text.charCodeAt(index) !== NEWLINE) {
    const detail = `the heredoc opener <<${tag} must end its line; its content starts on the next line`;
    return failure(detail, index, false);
  }
  const contentStart = index + 1;
  for (let lineStart = contentStart; ; ) {
    let first = lineStart;
    while (first < text.length && isIndent(text.charCodeAt(first))) first += 1;
    const after = first + tag.length;
    if (
      text.startsWith(tag, first) &&
      (after >= text.length || !isTagChar(text.charCodeAt(after)))
    ) {
      return {
        ok: true,
        value: withoutFinalLineBreak(text.slice(contentStart, lineStart)),
        end: after,
      };
    }
    const lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) {
      const detail = `the heredoc <<${tag} is not closed: end it with a line that starts with ${tag}`;
      return failure(detail, start, true);
    }
    lineStart = lineEnd + 1;
  }
}

function failure(detail: string, offset: number, incomplete: boolean): HeredocRead {
  return { ok: false, detail, offset, incomplete };
}

/** The body without the line break (`\n` or `\r\n`) before its closing line. */
function withoutFinalLineBreak(raw: string): string {
  let end = raw.length;
  if (raw.charCodeAt(end - 1) === NEWLINE) end -= 1;
  if (raw.charCodeAt(end - 1) === 0x0d) end -= 1;
  return raw.slice(0, end);
}
