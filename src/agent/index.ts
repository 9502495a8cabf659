// The agent loop: model turns, streamed detection, eager dispatch, loop detection.
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
