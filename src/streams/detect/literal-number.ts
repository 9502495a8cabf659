/**
 * Where the number literal starting at `start` ends (`-`, digits, then an optional fraction and
 * exponent, as JSON writes them), or where it stops being one: `malformedAt` is the offset of
 * the first character that breaks it.
 */
export function numberEnd(
  text: string,
  start: number,
): { readonly end: number } | { readonly malformedAt: number } {
  let index = start;
  if (text.charCodeAt(index) === 0x2d) index += 1;
  const integerStart = index;
  index = skipDigits(text, index);
  if (index === integerStart) return { malformedAt: index };
  if (text.charCodeAt(index) === 0x2e) {
    const fractionStart = index + 1;
    index = skipDigits(text, fractionStart);
    if (index === fractionStart) return { malformedAt: index };
  }
  const exponent = text.charCodeAt(index);
  if (exponent === 0x65 || exponent === 0x45) {
    index += 1;
    const sign = text.charCodeAt(index);
    if (sign === 0x2b || sign === 0x2d) index += 1;
    const digitsStart = index;
    index = skipDigits(text, digitsStart);
    if (index === digitsStart) return { malformedAt: index };
  }
  return { end: index };
}

function skipDigits(text: string, from: number): number {
  let index = from;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code < 0x30 || code > 0x39) break;
    index += 1;
  }
  return index;
}
