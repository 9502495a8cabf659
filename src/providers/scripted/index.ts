// The scripted model: an offline, deterministic ModelClient for tests, demos and benchmarks.
export {
  createScriptedModel,
  type ScriptedModel,
  type ScriptedModelOptions,
} from './scripted-model.js';
export {
  isSafeFinish,
  type ScriptedCall,
  type ScriptedReply,
  type ScriptedTurn,
} from './scripted-turn.js';
