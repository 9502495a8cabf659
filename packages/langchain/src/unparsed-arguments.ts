import { isPlainObject } from 'switchyard/tools';

// A call whose argument text is not whole JSON keeps that text under this key in its parsed
// arguments (the key the AI SDK adapter uses for the same purpose), so that any state reducer
// keeps the evidence and Switchyard refuses the text the model wrote.
const UNPARSED_KEY = '__switchyard_unparsed_input';

/** Arguments that stand for `text`, argument text that did not parse. */
export function unparsedArguments(text: string): Record<string, string> {
  return { [UNPARSED_KEY]: text };
}

/** What to dispatch for parsed arguments: the model's own text when they stand for it. */
export function dispatchedArguments(args: unknown): string | Record<string, unknown> {
  if (isPlainObject(args) && typeof args[UNPARSED_KEY] === 'string') return args[UNPARSED_KEY];
  return args as Record<string, unknown>;
}
