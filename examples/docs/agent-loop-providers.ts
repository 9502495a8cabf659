// docs/agent-loop.md: the provider models (they read their keys from the environment).
// #region providers
import { createAnthropicModel } from '@switchyard/anthropic';
import { createOpenAIChatModel, createOpenAIResponsesModel } from '@switchyard/openai';

const chat = createOpenAIChatModel({ model: 'gpt-5.1' }); // OPENAI_API_KEY, OPENAI_BASE_URL
const responses = createOpenAIResponsesModel({
  model: 'gpt-5.1',
  hostedTools: [{ type: 'web_search' }],
});
const claude = createAnthropicModel({ model: 'claude-sonnet-5-5', maxTokens: 4096 }); // ANTHROPIC_API_KEY

// #endregion providers

export { chat, claude, responses };
