// The OpenAI adapters (Chat Completions and Responses) and their wire converters.
export { chatChunkDeltas } from './chat-chunk-deltas.js';
export { toChatMessages, toChatToolMessages, toChatTools } from './chat-request.js';
export { createOpenAIChatModel, type OpenAIChatModelOptions } from './create-openai-chat-model.js';
export {
  createOpenAIResponsesModel,
  type OpenAIResponsesModelOptions,
} from './create-openai-responses-model.js';
export { createOpenAIBinder, type OpenAIBinderOptions } from './openai-binder.js';
export { openAIModelError, toOpenAIModelError } from './openai-model-error.js';
export type { OpenAIModelOptions } from './openai-options.js';
export { proposedCallsFromChatCompletion, proposedCallsFromResponse } from './proposed-calls.js';
export {
  type ResponsesTranslationOptions,
  responsesEventDeltas,
} from './responses-event-deltas.js';
export {
  type FunctionCallOutputItem,
  toResponsesFunctionOutputs,
  toResponsesInput,
  toResponsesTools,
} from './responses-request.js';
export { type StrictSchemaConversion, toOpenAIStrictSchema } from './strict-schema.js';
