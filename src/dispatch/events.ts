import type { ToolKind, ToolProgress } from '../tools/tool-spec.js';
import type { AuditData } from './audit.js';
import type { ExecutorName } from './envelope.js';
import type { ToolCallErrorCategory } from './error-taxonomy.js';

/** Fields every lifecycle event carries (ACP `toolCallId`, OTel `gen_ai.tool.call.id`). */
interface EventBase {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly emitOrder: number;
  readonly sessionId: string;
  /** Milliseconds since the epoch. */
  readonly at: number;
}

/** The call was proposed (ACP `tool_call`, status `pending`). */
export interface ToolCallStartedEvent extends EventBase {
  readonly type: 'tool_call';
  readonly status: 'pending';
  readonly title: string;
  readonly kind: ToolKind;
  readonly rawInput: unknown;
}

/** The call entered the middleware and executor. */
export interface ToolCallInProgressEvent extends EventBase {
  readonly type: 'tool_call_update';
  readonly status: 'in_progress';
}

/** The call finished; one per call. */
export interface ToolCallFinishedEvent extends EventBase {
  readonly type: 'tool_call_update';
  readonly status: 'completed' | 'failed';
  readonly resultStatus: string;
  readonly errorCategory: ToolCallErrorCategory | null;
  readonly error: string | null;
  readonly executor: ExecutorName | null;
  /** From the call's arrival to its result. */
  readonly durationMs: number;
  /** Inside the executor only; null when the tool never ran. */
  readonly executionDurationMs: number | null;
  readonly rawOutput: unknown;
}

/** A middleware layer attached audit data to the result. */
export interface ToolCallAuditEvent extends EventBase {
  readonly type: 'tool_call_audit';
  readonly audit: AuditData;
}

/** A running tool reported progress through `runtime.emit`. */
export interface ToolCallProgressEvent extends EventBase {
  readonly type: 'tool_call_progress';
  readonly progress: ToolProgress;
}

/** Any lifecycle event of a call, on `dispatcher.events$`. */
export type ToolCallEvent =
  | ToolCallStartedEvent
  | ToolCallInProgressEvent
  | ToolCallFinishedEvent
  | ToolCallAuditEvent
  | ToolCallProgressEvent;
