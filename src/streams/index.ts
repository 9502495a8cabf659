// `switchyard/streams`: many calls over time: turns in planner order, the RxJS operator, streamed
// turns with eager starts, and the scheduling policies they take.

export { type CallConstraint, callConstraint } from './call-constraints.js';
export { dispatchCalls } from './dispatch-calls.js';
export {
  dispatchTurn,
  streamTurn,
  type TurnCalls,
  type TurnCallsOptions,
} from './dispatch-turn.js';
export { type EagerPolicy, eagerGate, isSafeToStartEarly } from './eager-start.js';
export { checkDispatcher, type StepAdapterOptions, stepTurnOptions } from './step-options.js';
export { StepTurn } from './step-turn.js';
export {
  dispatchStreamedTurn,
  type SettledCandidate,
  type StreamedTurn,
  type StreamedTurnOptions,
} from './streamed-turn.js';
export type { ProviderContent, ToolCallDelta } from './tool-call-delta.js';
export {
  type CallSource,
  DEFAULT_INTERRUPT_GRACE_MS,
  DEFAULT_MAX_CONCURRENT_TOOLS,
  type DispatchTurnOptions,
  isFatalFailure,
  type StartGate,
} from './turn-options.js';
