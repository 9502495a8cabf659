/**
 * Character classes of the text-mode call grammar, by UTF-16 code. Tool names may contain `-`
 * and `.` (both legal in tool names) after a first letter, `_` or `$`; object keys are
 * JavaScript identifiers; heredoc tags are ASCII letters, digits and `_`.
 */

/** True for a character that may start a tool name or a key. */
export function isNameStart(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    code === 0x5f ||
    code === 0x24
  );
}

/** True for a character that may continue an object key (or a heredoc tag, with `$`). */
export function isKeyChar(code: number): boolean {
  return isNameStart(code) || (code >= 0x30 && code <= 0x39);
}

/** True for a character that may continue a tool name. */
export function isNameChar(code: number): boolean {
  return isKeyChar(code) || code === 0x2d || code === 0x2e;
}

/** True for a character of a heredoc tag. */
export function isTagChar(code: number): boolean {
  return isKeyChar(code) && code !== 0x24;
}

/** Length of the tool name starting at `from` (0 when none starts there). */
export function nameLength(text: string, from: number): number {
  if (from >= text.length || !isNameStart(text.charCodeAt(from))) return 0;
  let index = from + 1;
  while (index < text.length && isNameChar(text.charCodeAt(index))) index += 1;
  return index - from;
}

/** Space or tab: the indentation before a line's first character. */
export function isIndent(code: number): boolean {
  return code === 0x20 || code === 0x09;
}
