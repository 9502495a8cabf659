import type { ToolCallResult } from '../dispatch/result.js';
import { type InDoubtCall, inDoubtCallOfResult } from '../journal/journal-views.js';
import type { RunJournal } from '../journal/run-journal.js';
import type { AgentTurn } from './agent-types.js';

/**
 * What a finished turn leaves the run waiting on: an operator (a call in doubt), decisions
 * (calls waiting for approval), or nothing more because a guardrail halted it; null when the run
 * goes on. A turn's other calls have run.
 */
export function waitingOn(turn: AgentTurn): 'in_doubt' | 'interrupted' | 'halted' | null {
  let waiting: 'interrupted' | 'halted' | null = null;
  for (const result of turn.results) {
    if (result.status === 'in_doubt') return 'in_doubt';
    if (result.status === 'guardrail_halted') waiting = 'halted';
    if (waiting === 'halted') continue;
    if (result.status === 'approval_required') waiting = 'interrupted';
  }
  return waiting;
}

/**
 * The run's calls in doubt: its journal's (every attempt of every run, resolved ones left out), or
 * without one the calls its executors reported in doubt.
 */
export function inDoubtOf(
  journal: RunJournal | undefined,
  results: readonly ToolCallResult[],
  runId: string,
): readonly InDoubtCall[] {
  if (journal !== undefined) return journal.inDoubtCalls();
  return results
    .filter((result) => result.status === 'in_doubt')
    .map((result) => inDoubtCallOfResult(runId, result));
}
