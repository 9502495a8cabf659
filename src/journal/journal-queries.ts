import type { ApprovalDecision, InDoubtResolution } from './journal-decisions.js';
import type { JournalStore } from './journal-store.js';
import {
  type InDoubtCall,
  inDoubtCallOf,
  type PendingApproval,
  pendingApprovalOf,
} from './journal-views.js';
import { openRunJournal, type RunJournal } from './run-journal.js';
import { isInDoubt, RunState } from './run-state.js';

/**
 * The pending approvals of the runs in `store` (all of them, or those of `runIds`), read without
 * opening the runs, so a running process is not disturbed.
 */
export async function listPendingApprovals(
  store: JournalStore,
  runIds?: readonly string[],
): Promise<PendingApproval[]> {
  const found: PendingApproval[] = [];
  for (const [runId, state] of await statesOf(store, runIds)) {
    for (const entry of state.calls.values()) {
      const pending = pendingApprovalOf(runId, entry);
      if (pending !== undefined) found.push(pending);
    }
  }
  return found;
}

/** The in-doubt calls of the runs in `store` (all of them, or those of `runIds`). */
export async function listInDoubtCalls(
  store: JournalStore,
  runIds?: readonly string[],
): Promise<InDoubtCall[]> {
  const found: InDoubtCall[] = [];
  for (const [runId, state] of await statesOf(store, runIds)) {
    for (const entry of state.calls.values()) {
      if (isInDoubt(entry)) found.push(inDoubtCallOf(runId, entry));
    }
  }
  return found;
}

/**
 * Records a decision on a pending approval of run `runId` from any process (a UI, a CLI, another
 * machine with the same store); the run applies it when it is resumed.
 *
 * @throws JournalDecisionError when it cannot apply; `JournalBusyError` while the run is running
 *   (in a store with one writer per run).
 */
export async function decideApproval(
  store: JournalStore,
  runId: string,
  decision: ApprovalDecision,
): Promise<void> {
  await withRun(store, runId, (journal) => journal.decide(decision));
}

/**
 * Records an operator's resolution of an in-doubt call of run `runId` from any process.
 *
 * @throws JournalDecisionError when the call is not in doubt; `JournalBusyError` while the run is
 *   running (in a store with one writer per run).
 */
export async function resolveInDoubtCall(
  store: JournalStore,
  runId: string,
  resolution: InDoubtResolution,
): Promise<void> {
  await withRun(store, runId, (journal) => journal.resolve(resolution));
}

/** Opens run `runId`, records what `act` records, and closes it (releasing it for others). */
async function withRun(
  store: JournalStore,
  runId: string,
  act: (journal: RunJournal) => Promise<void>,
): Promise<void> {
  const journal = await openRunJournal({ store, runId });
  try {
    await act(journal);
  } finally {
    await journal.close();
  }
}

async function statesOf(
  store: JournalStore,
  runIds: readonly string[] | undefined,
): Promise<Array<[string, RunState]>> {
  const states: Array<[string, RunState]> = [];
  for (const runId of runIds ?? (await store.list())) {
    const records = await store.read(runId);
    if (records !== undefined) states.push([runId, new RunState(records)]);
  }
  return states;
}
