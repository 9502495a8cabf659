// `switchyard/agent`: the agent loop (model turns, streamed detection, eager dispatch, loop
// detection) and the hooks other packages plug into it: tool sources (MCP servers) and tool search.
export { agentLoop } from './agent-loop.js';
export {
  type AgentEvent,
  type AgentLoopEvent,
  type AgentLoopOptions,
  type AgentRun,
  type AgentStatus,
  type AgentTurn,
  DONE_MARKER,
  type ProviderNativeRecord,
} from './agent-types.js';
export { withLoopGuard } from './loop-guard.js';
export type {
  ToolSearchContext,
  ToolSearchEvent,
  ToolSearchHook,
  ToolSearchQueryEvent,
  ToolSearchResultEvent,
  ToolSearchView,
} from './tool-search-hook.js';
export type { OpenToolSource, ToolSource } from './tool-source.js';
