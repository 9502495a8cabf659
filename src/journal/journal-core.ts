import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import type { JournalRecord } from './journal-record.js';
import type { RunState } from './run-state.js';

/** Which calls wait for a decision, and for how long. */
export interface ApprovalSettings {
  /** True when the call must wait for a decision. */
  when(call: ToolCallEnvelope): boolean;
  /** A request lapses into a denial this long after it was made; undefined: never. */
  readonly expiresInMs: number | undefined;
}

/** What a run journal shares with the gates that record its calls. */
export interface JournalCore {
  readonly runId: string;
  readonly state: RunState;
  readonly approvals: ApprovalSettings | null;
  /** Record read-only calls too. */
  readonly readOnlyCalls: boolean;
  /** Wall clock, ms since the epoch. */
  readonly now: () => number;
  /** Calls answered from the journal in this process (completed or resolved in an earlier run). */
  replayedCalls: number;
  /**
   * Folds the record into the state at once, then appends it; resolves once it is durable, to
   * false when another writer had claimed the same thing (see `claimOf`).
   */
  record(record: JournalRecord): Promise<boolean>;
}
