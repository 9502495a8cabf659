import { isPlainObject } from 'switchyard/tools';

// The AI SDK parses a call's JSON before any tool sees it and answers unparseable input itself.
// The repair hook wraps such input under this key so the call still reaches Switchyard, which
// refuses it with its own repair message and receipt.
const RAW_INPUT_KEY = '__switchyard_unparsed_input';

/** The input of a call whose JSON did not parse, wrapped so that the AI SDK passes it on. */
export function wrapUnparsedInput(text: string): string {
  return JSON.stringify({ [RAW_INPUT_KEY]: text });
}

/** `text` as it is when it parses as JSON, wrapped otherwise. */
export function parsableInput(text: string): string {
  try {
    JSON.parse(text);
    return text;
  } catch {
    return wrapUnparsedInput(text);
  }
}

/** The arguments to dispatch: the model's own text for wrapped input, the parsed value otherwise. */
export function argumentsOf(input: unknown): string | Record<string, unknown> {
  if (isPlainObject(input) && typeof input[RAW_INPUT_KEY] === 'string') {
    return input[RAW_INPUT_KEY];
  }
  return input as Record<string, unknown>;
}
