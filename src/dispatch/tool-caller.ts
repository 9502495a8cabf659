import type { ToolCallEnvelope } from './envelope.js';
import type { ToolCallResult } from './result.js';

/** Hands a call to the next layer inward (ultimately the executor). */
export type Next = (call: ToolCallEnvelope) => Promise<ToolCallResult>;

/**
 * An execution-time middleware layer. It may observe the call and result, rewrite the arguments
 * (`next({ ...call, toolArgs })`), short-circuit by returning a result without calling `next`,
 * and attach `audit` data (merged with `mergeAudit`).
 */
export type ToolCaller = (call: ToolCallEnvelope, next: Next) => Promise<ToolCallResult>;
