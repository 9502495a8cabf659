// The Anthropic Messages adapter: the model client and the converters usable without the loop.

export { type AnthropicBinderOptions, createAnthropicBinder } from './anthropic-binder.js';
export { AnthropicDeltaTranslator } from './anthropic-delta-translator.js';
export { createAnthropicModel } from './anthropic-model.js';
export { toAnthropicModelError } from './anthropic-model-error.js';
export {
  type AnthropicModelOptions,
  DEFAULT_ANTHROPIC_MAX_TOKENS,
} from './anthropic-model-options.js';
export { isSafeAnthropicStop } from './anthropic-stop-reasons.js';
export { proposedCallsFromMessage } from './proposed-calls-from-message.js';
export { toAnthropicMessages } from './to-anthropic-messages.js';
export { type AnthropicRequestSettings, toAnthropicRequest } from './to-anthropic-request.js';
export { toAnthropicToolResults } from './to-anthropic-tool-results.js';
export { toAnthropicTools } from './to-anthropic-tools.js';
