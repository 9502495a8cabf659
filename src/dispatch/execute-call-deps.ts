import type { SchemaValidator } from '../tools/schema-validator.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { ToolProgress } from '../tools/tool-spec.js';
import type { ExecutorName, ToolCallEnvelope } from './envelope.js';
import type { Executor, RuntimeValues } from './executor.js';
import type { ArtifactStore } from './render-output.js';
import type { SecretScrubber } from './secret-scrubber.js';

/** What the executor stage needs from its dispatcher. */
export interface ExecuteCallDeps {
  readonly registry: ToolRegistry;
  readonly validator: SchemaValidator;
  readonly executors: ReadonlyMap<ExecutorName, Executor>;
  readonly values: RuntimeValues;
  readonly maxRenderedChars: number;
  readonly artifactStore: ArtifactStore | undefined;
  readonly now: () => number;
  readonly random: () => number;
  readonly sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  readonly onProgress: (call: ToolCallEnvelope, progress: ToolProgress) => void;
  /** Removes injected secrets from what a tool returned, threw or reported; null: no scrubbing. */
  readonly scrubber: SecretScrubber | null;
}
