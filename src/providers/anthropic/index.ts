// The Anthropic Messages adapter: the model client and the converters usable without the loop.
export { AnthropicDeltaTranslator } from './anthropic-delta-translator.js';
export { isSafeAnthropicStop } from './anthropic-stop-reasons.js';
export { proposedCallsFromMessage } from './proposed-calls-from-message.js';
export { toAnthropicMessages } from './to-anthropic-messages.js';
export { toAnthropicToolResults } from './to-anthropic-tool-results.js';
export { toAnthropicTools } from './to-anthropic-tools.js';
