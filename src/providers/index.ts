// `switchyard/providers`: the provider-neutral model contract that the agent loop drives, and the
// helpers a provider package builds on: provider failures as `ModelError`s, and a provider's event
// stream read under the idle timeout. The providers themselves are packages of their own
// (`@switchyard/openai`, `@switchyard/anthropic`), each with its SDK.

export type {
  AssistantMessage,
  ModelClient,
  ModelRequest,
  NativeToolSearchRecord,
  NativeToolSearchRequest,
  ToolResultsMessage,
  TranscriptMessage,
  TranscriptToolCall,
  TranscriptToolResult,
  UserMessage,
} from './model-client.js';
export { abortedTurn, modelError, toModelError } from './provider-errors.js';
export {
  DEFAULT_STREAM_IDLE_TIMEOUT_MS,
  type ProviderTurnSource,
  streamProviderTurn,
} from './stream-provider-turn.js';
