import type { Anthropic } from '@anthropic-ai/sdk';
import type { TranscriptMessage } from 'switchyard';
import { InvalidArgumentError } from 'switchyard';
import type { AssistantMessage } from 'switchyard/providers';
import { isPlainObject } from 'switchyard/tools';

type MessageParam = Anthropic.Messages.MessageParam;

const ANTHROPIC_PROVIDER = 'anthropic';
type ContentBlockParam = Anthropic.Messages.ContentBlockParam;

/**
 * Maps a provider-neutral transcript onto Messages API `messages`:
 * - a user message → a `text` block;
 * - an assistant message → the content blocks the API sent, verbatim, when the adapter recorded
 *   them (`providerContent`: a turn with server tool results or thinking, which must go back
 *   whole); otherwise its `text` block (when not empty), then one `tool_use` block per call
 *   (`input` is the parsed `argumentsText`, or `{}` when it is not a JSON object: a retracted call
 *   still needs its `tool_use` so that its `tool_result` pairs). Provider-native calls are left
 *   out: the API ran them and their results are not in the transcript;
 * - a tool message → one `user` message of `tool_result` blocks, in order, each with `is_error`.
 *
 * The API requires user and assistant turns to alternate, so consecutive messages of one role are
 * merged, and within a merged user message the `tool_result` blocks come first (the API wants the
 * answers to the previous turn's calls before anything else). Empty text is not sent (the API
 * refuses empty text blocks), and a message left without blocks is dropped.
 *
 * @example
 * toAnthropicMessages([
 *   { role: 'user', text: 'Read a.md' },
 *   { role: 'assistant', text: '', toolCalls: [{ id: 'toolu_1', name: 'read', argumentsText: '{"path":"a.md"}' }] },
 *   { role: 'tool', results: [{ toolCallId: 'toolu_1', toolName: 'read', content: '# A', isError: false }] },
 * ]);
 * // [{role: 'user', content: [{type: 'text', text: 'Read a.md'}]},
 * //  {role: 'assistant', content: [{type: 'tool_use', id: 'toolu_1', name: 'read', input: {path: 'a.md'}}]},
 * //  {role: 'user', content: [{type: 'tool_result', tool_use_id: 'toolu_1', content: '# A', is_error: false}]}]
 */
export function toAnthropicMessages(transcript: readonly TranscriptMessage[]): MessageParam[] {
  const merged: { role: 'user' | 'assistant'; content: ContentBlockParam[] }[] = [];
  for (const message of transcript) {
    const { role, content } = wireOf(message);
    if (content.length === 0) continue;
    const last = merged.at(-1);
    if (last?.role === role) last.content.push(...content);
    else merged.push({ role, content });
  }
  return merged.map(({ role, content }) => ({
    role,
    content: role === 'user' ? toolResultsFirst(content) : content,
  }));
}

function wireOf(message: TranscriptMessage): {
  role: 'user' | 'assistant';
  content: ContentBlockParam[];
} {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: textBlocks(message.text) };
    case 'assistant':
      return { role: 'assistant', content: assistantBlocks(message) };
    case 'tool':
      return {
        role: 'user',
        content: message.results.map((result) => ({
          type: 'tool_result',
          tool_use_id: result.toolCallId,
          content: result.content,
          is_error: result.isError,
        })),
      };
    default:
      message satisfies never;
      throw new InvalidArgumentError(
        'transcript',
        `unknown transcript role ${JSON.stringify((message as { role: unknown }).role)}`,
      );
  }
}

function assistantBlocks(message: AssistantMessage): ContentBlockParam[] {
  // The API's own record (hosted tool results, thinking) goes back as it came.
  const recorded = message.providerContent;
  if (recorded?.provider === ANTHROPIC_PROVIDER && Array.isArray(recorded.content)) {
    return [...(recorded.content as ContentBlockParam[])];
  }
  const blocks = textBlocks(message.text);
  for (const call of message.toolCalls) {
    if (call.providerNative === true) continue;
    blocks.push({
      type: 'tool_use',
      id: call.id,
      name: call.name,
      input: replayedInput(call.argumentsText),
    });
  }
  return blocks;
}

function textBlocks(text: string): ContentBlockParam[] {
  return text === '' ? [] : [{ type: 'text', text }];
}

/** The call's arguments as an object; `{}` for text that is empty, broken or not an object. */
function replayedInput(argumentsText: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(argumentsText);
    return isPlainObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function toolResultsFirst(content: ContentBlockParam[]): ContentBlockParam[] {
  const results = content.filter((block) => block.type === 'tool_result');
  if (results.length === 0 || results.length === content.length) return content;
  return [...results, ...content.filter((block) => block.type !== 'tool_result')];
}
