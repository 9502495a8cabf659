/**
 * Why a literal did not parse: what went wrong, where, and whether more text could still make it
 * parse (`incomplete`: the text ended inside the literal). Thrown inside the parser to unwind
 * it; never leaves `parseTextCall`.
 */
export class LiteralSyntaxError {
  constructor(
    readonly detail: string,
    readonly offset: number,
    readonly incomplete: boolean,
  ) {}
}

/** The character at `index`, quoted for a message. */
export function describeAt(text: string, index: number): string {
  if (index >= text.length) return 'the end of the text';
  const char = text[index]!;
  if (char === '\n') return 'a line break';
  return `\`${char}\``;
}
