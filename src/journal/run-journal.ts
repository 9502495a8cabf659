import type { CallJournal, ExecuteCall } from '../dispatch/call-journal.js';
import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import type { ToolCallResult } from '../dispatch/result.js';
import { InvalidOptionError, JournalDecisionError } from '../errors.js';
import { needsConsent } from '../middleware/with-consent.js';
import {
  checkBoolean,
  checkNonNegative,
  checkOptionalFunction,
  checkString,
  optionsObject,
} from '../option-checks.js';
import type { ToolCallDelta } from '../streams/tool-call-delta.js';
import type { AnyTool } from '../tools/tool-registry.js';
import { CallGate } from './call-gate.js';
import type { CallIdentity } from './call-key.js';
import type { ApprovalSettings, JournalCore } from './journal-core.js';
import {
  type ApprovalDecision,
  decisionRecord,
  type InDoubtResolution,
  resolutionRecord,
} from './journal-decisions.js';
import type { JournalRecord } from './journal-record.js';
import type { JournalStore, StoredRun } from './journal-store.js';
import {
  type InDoubtCall,
  inDoubtCallOf,
  type PendingApproval,
  pendingApprovalOf,
} from './journal-views.js';
import { replayOrRecordTurn } from './journaled-turn.js';
import { isInDoubt, RunState } from './run-state.js';

/** Which calls of a journaled run wait for a decision (durable approvals). */
export interface ApprovalOptions {
  /** Which calls need one. Default `needsConsent`: tools that ask for confirmation or are destructive. */
  readonly when?: (call: ToolCallEnvelope) => boolean;
  /** How long a request waits before it lapses into a denial, ms. Default: it never lapses. */
  readonly expiresInMs?: number;
}

/** Options of `openRunJournal`. */
export interface RunJournalOptions {
  /** Where the journal lives: `createFileJournalStore`, or the Redis store of `@switchyard/queue`. */
  readonly store: JournalStore;
  /** The run: the same id resumes it. */
  readonly runId: string;
  /**
   * Durable approvals: a call that needs one is not run but answered `approval_required`, its
   * request recorded; a decision recorded later (by any process) lets it run once, or denies it.
   * `true` for the defaults of `ApprovalOptions`. Default off.
   */
  readonly approvals?: boolean | ApprovalOptions;
  /** Record calls of read-only tools too (they run again on resume otherwise). Default false. */
  readonly recordReadOnly?: boolean;
  /** Wall clock, ms since the epoch. Default `Date.now`. */
  readonly now?: () => number;
}

const FACTORY = 'openRunJournal';

/**
 * Opens the journal of run `runId` in `store`, with what earlier runs recorded, for one process to
 * run it (see `RunJournal`). Close it when the run ends.
 *
 * @throws InvalidOptionError for bad options; `JournalBusyError` when another live process has the
 *   run open; what the store throws when it cannot be read.
 * @example
 * const journal = await openRunJournal({ store: createFileJournalStore({ directory }), runId: 'order-42' });
 * try {
 *   const run = await agentLoop({ task, model, tools, journal });
 * } finally {
 *   await journal.close();
 * }
 */
export async function openRunJournal(options: RunJournalOptions): Promise<RunJournal> {
  const settings = optionsObject(FACTORY, options);
  const store = settings.store as JournalStore | undefined;
  if (typeof store?.open !== 'function') {
    throw new InvalidOptionError(
      'store',
      `${FACTORY}: store must be a JournalStore (createFileJournalStore, createRedisJournalStore)`,
    );
  }
  const runId = checkString(FACTORY, 'runId', settings.runId, { nonEmpty: true });
  const approvals = approvalSettings(settings.approvals);
  const recordReadOnly = checkBoolean(FACTORY, 'recordReadOnly', settings.recordReadOnly ?? false);
  const now = checkOptionalFunction(FACTORY, 'now', settings.now) ?? Date.now;
  const stored = await store.open(runId);
  return new RunJournal(stored, { approvals, readOnlyCalls: recordReadOnly, now });
}

function approvalSettings(value: RunJournalOptions['approvals']): ApprovalSettings | null {
  if (value === undefined || value === false) return null;
  const options = value === true ? {} : optionsObject(`${FACTORY} approvals`, value);
  const when = checkOptionalFunction(FACTORY, 'approvals.when', options.when) ?? needsConsent;
  const expiresInMs =
    options.expiresInMs === undefined
      ? undefined
      : checkNonNegative(FACTORY, 'approvals.expiresInMs', options.expiresInMs);
  return { when, expiresInMs };
}

/**
 * The journal of one run, open in this process. Pass it to `agentLoop` (`journal`) or to a turn
 * (`dispatchTurn(calls, { journal })`): every call that may have side effects is recorded before
 * it starts and after it ends, so a resumed run never runs a completed call again (it gets the
 * recorded result), never runs again one that may have taken effect unless that is safe (it is
 * `in_doubt` until an operator resolves it), and keeps its pending approvals. Read what it holds
 * (`pendingApprovals`, `inDoubtCalls`) and apply decisions by call id (`decide`, `resolve`).
 */
export class RunJournal implements CallJournal {
  readonly runId: string;
  readonly #stored: StoredRun;
  readonly #core: JournalCore;
  readonly #byId: CallGate;
  readonly #byPosition: CallGate;
  /** Model turns replayed from the journal in this process. */
  #replayedTurns = 0;

  /** Use `openRunJournal`. */
  constructor(
    stored: StoredRun,
    settings: {
      readonly approvals: ApprovalSettings | null;
      readonly readOnlyCalls: boolean;
      readonly now: () => number;
    },
  ) {
    this.runId = stored.runId;
    this.#stored = stored;
    const state = new RunState(stored.records);
    this.#core = {
      runId: stored.runId,
      state,
      approvals: settings.approvals,
      readOnlyCalls: settings.readOnlyCalls,
      now: settings.now,
      replayedCalls: 0,
      record(record: JournalRecord) {
        state.apply(record);
        return stored.append(record);
      },
    };
    this.#byId = new CallGate(this.#core, 'call_id');
    this.#byPosition = new CallGate(this.#core, 'position');
  }

  /** Whether an earlier run left records to resume from. */
  get resumed(): boolean {
    return this.#stored.records.length > 0;
  }

  /** What this process took from the journal instead of asking the model or running the tool. */
  get replayed(): { readonly modelTurns: number; readonly toolCalls: number } {
    return { modelTurns: this.#replayedTurns, toolCalls: this.#core.replayedCalls };
  }

  /** The `CallJournal` of a turn whose calls keep their ids across runs (see `CallIdentity`). */
  run(
    call: ToolCallEnvelope,
    tool: AnyTool,
    execute: ExecuteCall,
  ): ToolCallResult | Promise<ToolCallResult> {
    return this.#byId.run(call, tool, execute);
  }

  /** The `CallJournal` recognising calls by `identity` (`agentLoop` uses `position`). */
  callsBy(identity: CallIdentity): CallJournal {
    return identity === 'position' ? this.#byPosition : this.#byId;
  }

  /**
   * Model turn `iteration`: replayed from the journal when an earlier run recorded it (the model is
   * not asked), else the deltas `open()` streams, recorded once the turn finishes (before the
   * iterator ends, so nothing that waits for the turn's end runs before its record is durable).
   */
  modelTurn(
    iteration: number,
    open: () => AsyncIterable<ToolCallDelta>,
  ): AsyncIterable<ToolCallDelta> {
    const recorded = this.#core.state.turns.get(iteration);
    if (recorded !== undefined) this.#replayedTurns += 1;
    return replayOrRecordTurn(recorded, open, async (deltas) => {
      await this.#core.record({ type: 'turn', iteration, deltas });
    });
  }

  /** The run's calls that wait for a decision. */
  pendingApprovals(): PendingApproval[] {
    const pending: PendingApproval[] = [];
    for (const entry of this.#core.state.calls.values()) {
      const approval = pendingApprovalOf(this.runId, entry);
      if (approval !== undefined) pending.push(approval);
    }
    return pending;
  }

  /** The run's calls that may or may not have taken effect and wait for an operator. */
  inDoubtCalls(): InDoubtCall[] {
    const found: InDoubtCall[] = [];
    for (const entry of this.#core.state.calls.values()) {
      if (isInDoubt(entry)) found.push(inDoubtCallOf(this.runId, entry));
    }
    return found;
  }

  /**
   * Records a decision on a pending approval, by call id. Deciding the same again changes nothing;
   * the run applies it when it next reaches the call (resume it with this journal, or any
   * process's journal of the run).
   *
   * @throws JournalDecisionError when the decision cannot apply (no such pending approval, it
   *   expired, another decision holds, or it names other arguments).
   */
  async decide(decision: ApprovalDecision): Promise<void> {
    const record = decisionRecord(this.#core.state, decision, this.#core.now());
    if (record === null) return;
    if (!(await this.#core.record(record))) {
      throw new JournalDecisionError(
        'already_decided',
        decision.callId,
        `another process decided on call ${decision.callId} first`,
      );
    }
  }

  /**
   * Records an operator's resolution of an in-doubt call, by call id: `done`, `rerun` or
   * `abandon` (see `InDoubtResolution`). The run applies it when it next reaches the call.
   *
   * @throws JournalDecisionError when no such call is in doubt.
   */
  async resolve(resolution: InDoubtResolution): Promise<void> {
    const record = resolutionRecord(this.#core.state, resolution, this.#core.now());
    await this.#core.record(record);
  }

  /** Waits for every record, then releases the run for other processes. */
  close(): Promise<void> {
    return this.#stored.close();
  }
}
