// `switchyard/adapters/langchain`: Switchyard behind LangChain.js and LangGraph — a tool node that
// runs each AI message's calls as one Switchyard turn. `@langchain/core` is an optional peer.

export { type FromLangChainToolsOptions, fromLangChainTools } from './from-langchain-tools.js';
export { proposedCallsFromAIMessage } from './proposed-calls-from-ai-message.js';
export {
  type MessagesState,
  type SwitchyardToolNodeOptions,
  switchyardToolNode,
  toToolMessage,
} from './switchyard-tool-node.js';
