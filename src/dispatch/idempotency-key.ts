import { hash } from 'node:crypto';
import type { ToolTurnFacts } from '../tools/tool-spec.js';
import type { ToolCallEnvelope } from './envelope.js';

/**
 * The idempotency key of a call: the one its journal set on the envelope (the same across
 * resumes), else `derivedIdempotencyKey` (the same across the retries of one call).
 */
export function idempotencyKeyOf(call: ToolCallEnvelope): string {
  return call.idempotencyKey ?? derivedIdempotencyKey(call.turn, call.callId);
}

/** The key of a call without a journal: from its run (or session), iteration and call id. */
export function derivedIdempotencyKey(
  turn: Pick<ToolTurnFacts, 'runId' | 'sessionId' | 'iteration'>,
  callId: string,
): string {
  return idempotencyKeyFrom(`${turn.runId ?? ''}\n${turn.sessionId}\n${turn.iteration}\n${callId}`);
}

/** A key of 32 hex digits (128 bits) naming `identity`: short enough for any API that takes one. */
export function idempotencyKeyFrom(identity: string): string {
  // node:crypto directly: worker threads load this module, and nothing else of the tools room.
  return `sy-${hash('sha256', identity, 'hex').slice(0, 32)}`;
}
