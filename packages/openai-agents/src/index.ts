// `switchyard/adapters/openai-agents`: Switchyard as the tool executor behind the OpenAI Agents SDK
// (`Agent`, `Runner`, `run`). `@openai/agents-core` (installed with `@openai/agents`) is an
// optional peer.

export {
  type FromOpenAIAgentsToolsOptions,
  fromOpenAIAgentsTools,
} from './from-openai-agents-tools.js';
export {
  type OpenAIAgentsToolSet,
  type OpenAIAgentsToolsOptions,
  openAIAgentsTools,
} from './openai-agents-tools.js';
export { type UnlistedCall, unlistedCallOf } from './unlisted-call.js';
