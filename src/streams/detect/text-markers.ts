/** The tags of the text-mode protocol. */
export const TOOL_CALL_OPEN = '<tool_call>';
export const TOOL_CALL_CLOSE = '</tool_call>';
export const USER_RESPONSE_OPEN = '<user_response>';
export const USER_RESPONSE_CLOSE = '</user_response>';
export const DONE_OPEN = '<done>';
export const DONE_CLOSE = '</done>';

/** Tags recognised at the start of a line. */
const LINE_TAGS = [TOOL_CALL_OPEN, USER_RESPONSE_OPEN, USER_RESPONSE_CLOSE, DONE_OPEN] as const;

/** One of the line tags, or what to do when none is complete at `first`. */
export type LineTag = (typeof LINE_TAGS)[number] | 'wait' | 'none';

/**
 * The tag at `first` (which holds a `<`): the tag itself, `wait` when the text ends inside what
 * could still become one, or `none`.
 */
export function lineTagAt(text: string, first: number): LineTag {
  let partial = false;
  for (const tag of LINE_TAGS) {
    if (text.startsWith(tag, first)) return tag;
    if (!partial && text.length - first < tag.length && tag.startsWith(text.slice(first))) {
      partial = true;
    }
  }
  return partial ? 'wait' : 'none';
}

/**
 * The longest line start that is held back waiting for more text: a fence line, a `<done>` line
 * or a name longer than this is decided without its end (a fence or `<done>` line that long is
 * prose; no tool name is that long). The cut-off is a rule of the grammar, not of the chunking,
 * so it never makes a chunked stream differ from the same text in one piece, and it keeps a
 * pathological line from being re-scanned on every chunk.
 */
export const LONGEST_HELD_LINE = 256;

/**
 * Where a fence line starting at `first` (a backtick) ends: the index after its line break,
 * `-1` to wait (the line or the three backticks are not all there yet), or `-2` for no fence.
 * A fence toggles only once its line break has arrived, so a half-streamed opener never
 * toggles twice.
 */
export function fenceLineEnd(text: string, first: number): number {
  for (let offset = 1; offset < 3; offset += 1) {
    if (first + offset >= text.length) return -1;
    if (text.charCodeAt(first + offset) !== 0x60) return -2;
  }
  const lineEnd = text.indexOf('\n', first + 3);
  if (lineEnd < 0) return text.length - first > LONGEST_HELD_LINE ? -2 : -1;
  return lineEnd - first > LONGEST_HELD_LINE ? -2 : lineEnd + 1;
}

/**
 * Where the `</done>` of a `<done>` line starting at `first` begins: its index, `-1` to wait for
 * more text, or `-2` when the line is not a done line (it ends, or grows too long, first).
 */
export function doneCloseAt(text: string, first: number): number {
  const lineEnd = text.indexOf('\n', first);
  const limit = Math.min(lineEnd < 0 ? text.length : lineEnd, first + LONGEST_HELD_LINE);
  const close = text.indexOf(DONE_CLOSE, first);
  if (close >= 0 && close + DONE_CLOSE.length <= limit) return close;
  return lineEnd < 0 && text.length - first <= LONGEST_HELD_LINE ? -1 : -2;
}

/**
 * Where a partial closing tag starts at the end of `text` (from `from` on), so it can be held
 * until the next chunk says whether it completes; -1 when the text does not end that way.
 */
export function partialTagAtEnd(text: string, from: number, tag: string): number {
  const earliest = Math.max(from, text.length - tag.length + 1);
  for (let index = text.indexOf('<', earliest); index >= 0; index = text.indexOf('<', index + 1)) {
    if (tag.startsWith(text.slice(index))) return index;
  }
  return -1;
}
