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
  return lineEnd < 0 ? -1 : lineEnd + 1;
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
