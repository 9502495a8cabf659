// `@switchyard/langchain`: Switchyard behind LangChain.js and LangGraph — a tool node that runs
// each step's calls as one Switchyard turn, and LangChain tools in a Switchyard registry.
// `@langchain/core` and `@langchain/langgraph` are peers.

export type { ApprovalAnswer, ApprovalInterrupt } from './approval-interrupts.js';
export {
  type FromLangChainToolsOptions,
  fromLangChainTools,
  type LangChainTool,
} from './from-langchain-tools.js';
export type { LangGraphToolContext } from './langgraph-tool-context.js';
export { markIncompleteToolCalls } from './mark-incomplete-tool-calls.js';
export { proposedCallsFromAIMessage } from './proposed-calls-from-ai-message.js';
export {
  type MessagesState,
  type SwitchyardToolNodeOptions,
  switchyardToolNode,
} from './switchyard-tool-node.js';
export { toToolMessage } from './tool-node-output.js';
