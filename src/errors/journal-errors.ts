import { SwitchyardError } from './switchyard-error.js';

/**
 * A run's journal is open in another live process: a run has one writer at a time. Names the
 * `runId` and, when known, who holds it (`holder`, e.g. `pid 4242 on host-a`).
 */
export class JournalBusyError extends SwitchyardError {
  static readonly CODE = 'SY_ERR_JOURNAL_BUSY';
  static readonly FORMER_CODES: readonly string[] = ['journal_busy'];
  readonly code = JournalBusyError.CODE;
  readonly runId: string;
  readonly holder: string | undefined;

  constructor(runId: string, holder?: string) {
    super(
      `the journal of run ${JSON.stringify(runId)} is open in another process${holder === undefined ? '' : ` (${holder})`}; a run has one writer at a time`,
    );
    this.runId = runId;
    this.holder = holder;
  }
}

/**
 * A decision on a pending approval, or the resolution of an in-doubt call, that the journal
 * refuses. `reason` says why: `unknown_call` (no such pending approval or in-doubt call),
 * `ambiguous_call` (several match the call id: name the key), `expired` (the approval lapsed),
 * `already_decided` (a different decision holds), `changed_arguments` or `other_tool` (the
 * decision was made for another version of the call), `not_in_doubt`.
 */
export class JournalDecisionError extends SwitchyardError {
  static readonly CODE = 'SY_ERR_JOURNAL_DECISION';
  static readonly FORMER_CODES: readonly string[] = ['journal_decision'];
  readonly code = JournalDecisionError.CODE;
  readonly reason:
    | 'unknown_call'
    | 'ambiguous_call'
    | 'expired'
    | 'already_decided'
    | 'changed_arguments'
    | 'other_tool'
    | 'not_in_doubt';
  readonly callId: string;

  constructor(reason: JournalDecisionError['reason'], callId: string, message: string) {
    super(message);
    this.reason = reason;
    this.callId = callId;
  }
}
