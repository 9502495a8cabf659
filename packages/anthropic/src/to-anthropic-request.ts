import type { Anthropic } from '@anthropic-ai/sdk';
import type { ModelRequest, NativeToolSearchRequest } from 'switchyard/providers';
import { toAnthropicMessages } from './to-anthropic-messages.js';
import { toAnthropicTools } from './to-anthropic-tools.js';

/** What a request needs beyond the turn itself. */
export interface AnthropicRequestSettings {
  readonly model: string;
  readonly maxTokens: number;
  readonly disableParallelToolUse: boolean;
  /** Server tools sent after the client tools. Default none. */
  readonly hostedTools?: readonly Anthropic.Messages.ToolUnion[];
  /** More body fields (`thinking`, `metadata`, …); the fields set here win. Default none. */
  readonly extraBody?: Readonly<Record<string, unknown>>;
}

/**
 * The streaming Messages API body for one model turn: `model`, `max_tokens`, `stream: true`,
 * `system` (when given and not empty), the transcript as alternating `messages`, and the client
 * tools followed by the hosted ones (left out when there are none, with `tool_choice` only to
 * disable parallel tool use).
 *
 * @example
 * const body = toAnthropicRequest(request, { model: 'claude-sonnet-5-5', maxTokens: 4096, disableParallelToolUse: false });
 * const events = await client.messages.create(body, { signal: request.signal });
 */
export function toAnthropicRequest(
  request: ModelRequest,
  settings: AnthropicRequestSettings,
): Anthropic.Messages.MessageCreateParamsStreaming {
  const tools = [
    ...toAnthropicTools(request.tools),
    ...toolSearchTools(request.toolSearch),
    ...(settings.hostedTools ?? []),
  ];
  return {
    ...settings.extraBody,
    model: settings.model,
    max_tokens: settings.maxTokens,
    stream: true,
    ...(request.system === undefined || request.system === '' ? {} : { system: request.system }),
    messages: toAnthropicMessages(request.messages),
    ...(tools.length === 0 ? {} : toolFields(tools, settings)),
  };
}

/** Deferred tools with `defer_loading`, then the search tool of the variant asked for. */
function toolSearchTools(
  search: NativeToolSearchRequest | undefined,
): Anthropic.Messages.ToolUnion[] {
  if (search === undefined) return [];
  const deferred = toAnthropicTools(search.deferred).map((tool) => ({
    ...tool,
    defer_loading: true,
  }));
  const searchTool: Anthropic.Messages.ToolUnion =
    search.variant === 'regex'
      ? { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' }
      : { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' };
  return [...deferred, searchTool];
}

function toolFields(
  tools: Anthropic.Messages.ToolUnion[],
  settings: AnthropicRequestSettings,
): Pick<Anthropic.Messages.MessageCreateParamsStreaming, 'tools' | 'tool_choice'> {
  if (!settings.disableParallelToolUse) return { tools };
  return { tools, tool_choice: { type: 'auto', disable_parallel_tool_use: true } };
}
