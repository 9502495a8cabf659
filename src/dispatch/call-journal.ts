import type { AnyTool } from '../tools/tool-registry.js';
import type { ToolCallEnvelope } from './envelope.js';
import type { ToolCallResult } from './result.js';

/** Runs a checked call on its executor: its result, or (thrown or rejected) its cancellation. */
export type ExecuteCall = (call: ToolCallEnvelope) => ToolCallResult | Promise<ToolCallResult>;

/**
 * What a turn's journal does where a call reaches its executor, after every layer let it through
 * (a run journal from `switchyard/journal` implements it; pass one as a turn's `journal`). It
 * answers the call from an earlier run's record, or runs `execute` at most once, recording the
 * intent before and the outcome after.
 */
export interface CallJournal {
  /**
   * The call's result. `execute` runs the call (at most once; the journal may hand it an envelope
   * spread from `call` with the call's `idempotencyKey`); the journal may instead answer from its
   * records without running anything. Throws or rejects only with the call's cancellation.
   */
  run(
    call: ToolCallEnvelope,
    tool: AnyTool,
    execute: ExecuteCall,
  ): ToolCallResult | Promise<ToolCallResult>;
}
