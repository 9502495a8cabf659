import { interrupt } from '@langchain/langgraph';
import { InvalidArgumentError, type ToolCallResult } from 'switchyard';
import {
  type ApprovalDecision,
  JournalDecisionError,
  type PendingApproval,
  type RunJournal,
} from 'switchyard/journal';

/**
 * What a graph resumed after an approval interrupt answers it with
 * (`new Command({ resume: answer })`): `true` / `'approved'` approves, `false` / `'denied'`
 * denies, or an object with the decision and who made it and why. `callId` and `key`, when given,
 * bind the answer to the call it was made for: an answer naming another call, or the key of other
 * arguments, is refused, nothing runs, and the graph pauses again on the same call.
 */
export type ApprovalAnswer =
  | boolean
  | 'approved'
  | 'denied'
  | {
      readonly decision: 'approved' | 'denied';
      readonly decidedBy?: string;
      readonly reason?: string;
      readonly callId?: string;
      readonly key?: string;
    };

/** The value of a LangGraph interrupt raised for a call that waits for approval. */
export interface ApprovalInterrupt {
  readonly type: 'switchyard_approval';
  /** The run journal's pending approval: the call, its tool and arguments, and its key. */
  readonly approval: PendingApproval;
  /** Why the previous answer was refused (it named another call or other arguments), if it was. */
  readonly refused?: string;
}

/**
 * Raises a LangGraph `interrupt()` for each call in `results` that waits for approval, in the
 * calls' order, then records the answers in the journal by call id. An answer bound to another
 * call (its `callId` or `key`) is refused and the interrupt raised again, with the reason: LangGraph
 * keeps an answer once given, so the call asks anew rather than fail the step for good. All are
 * asked before any is decided: LangGraph hands resume values to a node's interrupts by their
 * order, and a node run again must ask the same interrupts in the same order. Throws LangGraph's
 * pause while an answer is missing.
 *
 * @returns whether any call waited (they should then be dispatched again).
 */
export async function decideThroughInterrupts(
  results: readonly ToolCallResult[],
  journal: RunJournal,
): Promise<boolean> {
  const waiting = results.flatMap((result) =>
    result.approval == null ? [] : [result.approval as PendingApproval],
  );
  const decisions = waiting.map(askUntilBound);
  for (const decision of decisions) {
    try {
      await journal.decide(decision);
    } catch (error) {
      // Decided meanwhile (another process, an operator) or lapsed: the journal's record holds.
      const held = error instanceof JournalDecisionError && HELD.has(error.reason);
      if (!held) throw error;
    }
  }
  return waiting.length > 0;
}

const HELD = new Set<JournalDecisionError['reason']>(['already_decided', 'expired']);

function askUntilBound(approval: PendingApproval): ApprovalDecision {
  let refused: string | undefined;
  for (;;) {
    const answer = interrupt<ApprovalInterrupt, unknown>({
      type: 'switchyard_approval',
      approval,
      ...(refused === undefined ? {} : { refused }),
    });
    const decision = decisionOf(approval, answer);
    if (typeof decision !== 'string') return decision;
    refused = decision;
  }
}

/** The decision `answer` makes on `approval`, or why it cannot apply to it. */
function decisionOf(approval: PendingApproval, answer: unknown): ApprovalDecision | string {
  const bound = { callId: approval.callId, key: approval.key, toolName: approval.toolName };
  if (answer === true || answer === 'approved') return { ...bound, decision: 'approved' };
  if (answer === false || answer === 'denied') return { ...bound, decision: 'denied' };
  const given = (typeof answer === 'object' ? answer : null) as Exclude<
    ApprovalAnswer,
    boolean | string
  > | null;
  if (given?.decision !== 'approved' && given?.decision !== 'denied') {
    throw new InvalidArgumentError(
      'resume',
      `the answer to the approval of call ${approval.callId} must be true, false, 'approved', 'denied' or { decision }`,
    );
  }
  if (given.callId !== undefined && given.callId !== approval.callId) {
    return `the answer names call ${given.callId}, not call ${approval.callId}`;
  }
  if (given.key !== undefined && given.key !== approval.key) {
    return `the answer is for other arguments (key ${given.key}), not those of call ${approval.callId}`;
  }
  return {
    ...bound,
    decision: given.decision,
    ...(given.decidedBy === undefined ? {} : { decidedBy: given.decidedBy }),
    ...(given.reason === undefined ? {} : { reason: given.reason }),
  };
}
