// The public surface of the streaming tool-call detectors, by name.

export { detectToolCalls } from './detect/detect-tool-calls.js';
export type { DetectorCommonOptions } from './detect/detector-options.js';
export {
  type PartialUpdateScheduler,
  realTimeScheduler,
} from './detect/partial-update-scheduler.js';
export type {
  CandidateOpenedEvent,
  CandidatePartialEvent,
  CandidatePromotedEvent,
  CandidateRetractedEvent,
  CandidateSource,
  DetectedCall,
  DetectedDoneEvent,
  DetectedTextEvent,
  DetectorEvent,
  DetectorListener,
  ProviderNativeCallEvent,
  RetractionReason,
  ToolCallDetector,
} from './detector-events.js';
export { createNativeDetector, type NativeDetectorOptions } from './native-detector.js';
export {
  parseTextCall,
  type TextCallParse,
  type TextCallParseOptions,
} from './text-call-parser.js';
export {
  createTextDetector,
  type TextDetector,
  type TextDetectorOptions,
} from './text-detector.js';
