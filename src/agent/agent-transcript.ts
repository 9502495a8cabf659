import type {
  AssistantMessage,
  ToolResultsMessage,
  TranscriptToolResult,
} from '../providers/model-client.js';
import type { StreamedTurn } from '../streams/streamed-turn.js';
import type { ToolRegistry } from '../tools/tool-registry.js';

/**
 * The assistant message of a finished turn: the text as the model wrote it and, for native tool
 * calling, every call it opened (retracted ones included, with their broken argument text, so
 * their error results pair with them), under the name the model used; and the provider's own
 * record of the response when the adapter sent one.
 */
export function assistantMessage(
  turn: StreamedTurn,
  registry: ToolRegistry,
  toolCalling: 'native' | 'text',
): AssistantMessage {
  const providerContent =
    turn.providerContent === null ? {} : { providerContent: turn.providerContent };
  if (toolCalling === 'text') {
    return { role: 'assistant', text: turn.text, toolCalls: [], ...providerContent };
  }
  return {
    role: 'assistant',
    text: turn.text,
    toolCalls: turn.candidates.map((candidate) => ({
      id: candidate.toolCallId,
      name: registry.aliasOf(candidate.toolName) ?? candidate.toolName,
      argumentsText: candidate.rawInput,
      ...(candidate.type === 'provider_native_call' ? { providerNative: true } : {}),
    })),
    ...providerContent,
  };
}

/**
 * The answers to a turn's calls, in the order the model opened them: each dispatched call's
 * observation, and each retracted call's repair message as an error. Provider-native calls were
 * answered by the provider. Null when there is nothing to answer.
 */
export function toolResultsMessage(turn: StreamedTurn): ToolResultsMessage | null {
  const results: TranscriptToolResult[] = [];
  for (const candidate of turn.candidates) {
    if (candidate.type === 'provider_native_call') continue;
    if (candidate.type === 'candidate_retracted') {
      results.push({
        toolCallId: candidate.toolCallId,
        toolName: candidate.toolName,
        content: candidate.error,
        isError: true,
      });
      continue;
    }
    const result = turn.results[candidate.emitOrder];
    if (result === undefined) continue;
    results.push({
      toolCallId: result.toolCallId,
      toolName: result.toolName,
      content: result.observation,
      isError: !result.ok,
    });
  }
  return results.length === 0 ? null : { role: 'tool', results };
}
