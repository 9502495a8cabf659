// Fakes and helpers for testing tool stacks the way Switchyard tests its own.

export * from '../providers/scripted/index.js';
export { type Deferred, deferred } from './deferred.js';
export {
  type Behaviour,
  type RecordedCall,
  type RecordingTool,
  type RecordingToolOptions,
  recordingTool,
} from './recording-tool.js';
