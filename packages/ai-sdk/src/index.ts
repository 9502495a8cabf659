// `switchyard/adapters/ai-sdk`: Switchyard as the tool executor behind the Vercel AI SDK
// (`generateText`, `streamText`, `ToolLoopAgent`). The `ai` package is an optional peer.

export { type AiSdkToolSet, type AiSdkToolsOptions, aiSdkTools } from './ai-sdk-tools.js';
export { type FromAiSdkToolsOptions, fromAiSdkTools } from './from-ai-sdk-tools.js';
export { type ModelOutput, toModelOutput } from './model-output.js';
