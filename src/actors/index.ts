// `switchyard/actors`: single owners of state and side effects: the actor primitive, the session
// actor (counters, loop detector, promoted tools) and the single-writer JSONL log.

export { ActorStoppedError } from '../errors.js';
export {
  type ActorOptions,
  type ActorRef,
  createActor,
  type SupervisorDirective,
} from './actor.js';
export { createJsonlWriter, type JsonlWriter, MAX_CHARS_PER_WRITE } from './jsonl-writer.js';
export {
  type LoopCheck,
  LoopDetector,
  type LoopThresholds,
  type LoopVerdict,
} from './loop-detector.js';
export {
  createSessionActor,
  type PromotionBudget,
  type SessionActor,
  type SessionActorOptions,
  type SessionCounters,
  type SessionMessage,
  type SessionSnapshot,
} from './session-actor.js';
