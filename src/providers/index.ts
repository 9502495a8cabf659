// `switchyard/providers`: the provider-neutral model contract that the agent loop drives, and the
// helpers that turn provider failures into `ModelError`s. Each provider's adapter has its own
// subpath (`switchyard/providers/openai`, `switchyard/providers/anthropic`) so that importing one
// loads only its SDK.

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
