// `switchyard/journal`: durable tool execution. A run's journal records each side-effecting call
// before it starts and after it ends (and the model's turns), so a resumed run never runs a call
// twice, surfaces the calls that may or may not have taken effect, and keeps pending approvals.

export type { CallJournal, ExecuteCall } from '../dispatch/call-journal.js';
export { JournalBusyError, JournalDecisionError } from '../errors.js';
export type { CallIdentity } from './call-key.js';
export {
  createFileJournalStore,
  type FileJournalStoreOptions,
} from './file-journal-store.js';
export {
  type ApprovedCallOptions,
  approvalJournalOf,
  runApprovedCall,
  toolNeedsApproval,
} from './framework-approval.js';
export type { ApprovalSettings } from './journal-core.js';
export type { ApprovalDecision, InDoubtResolution } from './journal-decisions.js';
export {
  decideApproval,
  listInDoubtCalls,
  listPendingApprovals,
  resolveInDoubtCall,
} from './journal-queries.js';
export {
  type ApprovalRecord,
  claimOf,
  type DecisionRecord,
  type IntentRecord,
  type JournaledResult,
  type JournalRecord,
  type OutcomeRecord,
  parseRecord,
  type ResolutionRecord,
  serializeRecord,
  type TurnRecord,
} from './journal-record.js';
export { IN_DOUBT_ERROR } from './journal-results.js';
export type { JournalStore, StoredRun } from './journal-store.js';
export type { InDoubtCall, PendingApproval } from './journal-views.js';
export {
  type ApprovalOptions,
  openRunJournal,
  RunJournal,
  type RunJournalOptions,
} from './run-journal.js';
