export { AsyncQueue } from './async-queue.js';
export { type CallConstraint, callConstraint } from './call-constraints.js';
export * from './detectors.js';
export { dispatchCalls } from './dispatch-calls.js';
export { dispatchTurn, streamTurn, type TurnCalls } from './dispatch-turn.js';
export type { ToolCallDelta } from './tool-call-delta.js';
export {
  type CallSource,
  DEFAULT_MAX_CONCURRENT_TOOLS,
  type DispatchTurnOptions,
  isFatalFailure,
  TurnRun,
} from './turn-run.js';
