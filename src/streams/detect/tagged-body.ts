import type { JsonObject } from '../../tools/json.js';
import type { RetractionReason } from '../detector-events.js';
import { parseTextCall } from '../text-call-parser.js';
import { nameLength } from './text-chars.js';

/** What a closed `<tool_call>` body holds: a call to promote, or why it is retracted. */
export type TaggedBody =
  | { readonly ok: true; readonly toolName: string; readonly args: JsonObject }
  | { readonly ok: false; readonly reason: RetractionReason; readonly message: string };

/**
 * Applies the rules for the trimmed body of a closed `<tool_call>` block, in the protocol's
 * order and with its exact messages: empty body, no leading identifier, unknown tool, name not
 * immediately followed by `(`, then the call parser (a missing final `)` is forgiven here, since
 * the closing tag shows where the call was meant to end).
 */
export function readTaggedBody(
  body: string,
  resolve: (name: string) => string | undefined,
): TaggedBody {
  if (body === '') return refuse('empty_body', '<tool_call> body was empty.');
  const nameEnd = nameLength(body, 0);
  if (nameEnd === 0) {
    return refuse('missing_name', '<tool_call> body did not begin with a `name(` identifier.');
  }
  const name = body.slice(0, nameEnd);
  const toolName = resolve(name);
  if (toolName === undefined) {
    return refuse('unknown_tool', `Unknown tool '${name}' in <tool_call> body.`);
  }
  if (body.charCodeAt(nameEnd) !== 0x28) {
    return refuse(
      'invalid_syntax',
      `Expected \`${name}(\` immediately after the tool name in <tool_call> body.`,
    );
  }
  const parsed = parseTextCall(body, { allowMissingParen: true });
  return parsed.ok
    ? { ok: true, toolName, args: parsed.arguments }
    : refuse(parsed.reason, parsed.message);
}

function refuse(reason: RetractionReason, message: string): TaggedBody {
  return { ok: false, reason, message };
}
