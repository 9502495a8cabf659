import type { CallJournal } from '../dispatch/call-journal.js';
import type { ToolCallResult } from '../dispatch/result.js';
import { InvalidOptionError, JournalDecisionError } from '../errors.js';
import type { AnyTool } from '../tools/tool-registry.js';
import type { PendingApproval } from './journal-views.js';
import { RunJournal } from './run-journal.js';

/**
 * Whether a framework that asks before a call runs (the AI SDK's `needsApproval`, the OpenAI
 * Agents SDK's) should ask for a call of `tool`: it is destructive or asks for confirmation, the
 * journal's default `approvals.when`. An unknown tool asks nothing (Switchyard refuses the call).
 */
export function toolNeedsApproval(tool: AnyTool | undefined): boolean {
  if (tool === undefined) return false;
  const { safety } = tool;
  return safety.requiresConfirmation || safety.destructive;
}

/** Options of `runApprovedCall`. */
export interface ApprovedCallOptions {
  /** The run's journal. */
  readonly journal: RunJournal;
  /** Dispatches the call through the journal (a turn with `journal`); called at most twice. */
  readonly dispatch: () => Promise<ToolCallResult>;
  /** Who approved, as the journal records it: the framework or the person behind it. */
  readonly decidedBy: string;
}

/**
 * Runs a call that a framework's own approval flow approved, on a run journal. The call is
 * dispatched; when the journal holds it for approval (`approval_required`), the approval is
 * recorded as the decision on that very call (its id, tool and argument key) and the call is
 * dispatched once more, so it runs once. A call the journal completed earlier returns its
 * recorded result; one decided otherwise in the meantime (an operator's denial) keeps that
 * decision.
 *
 * @returns the call's one result.
 * @throws JournalDecisionError when the decision cannot apply for another reason (see `reason`).
 */
export async function runApprovedCall(options: ApprovedCallOptions): Promise<ToolCallResult> {
  const first = await options.dispatch();
  const approval = first.approval as PendingApproval | undefined;
  if (approval == null) return first;
  try {
    await options.journal.decide({
      callId: approval.callId,
      key: approval.key,
      toolName: approval.toolName,
      decision: 'approved',
      decidedBy: options.decidedBy,
    });
  } catch (error) {
    const held =
      error instanceof JournalDecisionError &&
      (error.reason === 'already_decided' || error.reason === 'expired');
    if (!held) throw error;
  }
  return options.dispatch();
}

/**
 * The run journal an adapter records its framework's approvals in: `journal` when `approvals` is
 * on, undefined when it is off.
 *
 * @throws InvalidOptionError when `approvals` is on and `journal` is not a run journal
 *   (`openRunJournal`): an approval that ran nowhere on record could run again after a crash.
 */
export function approvalJournalOf(
  options: { readonly journal?: CallJournal; readonly approvals?: boolean },
  adapter: string,
): RunJournal | undefined {
  if (options.approvals !== true) return undefined;
  if (!(options.journal instanceof RunJournal)) {
    throw new InvalidOptionError(
      'journal',
      `${adapter}: approvals need a run journal (openRunJournal from switchyard/journal)`,
    );
  }
  return options.journal;
}
