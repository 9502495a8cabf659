/**
 * Benchmarks measure the compiled library (`npm run build` → dist/), as users run it. Running the
 * TypeScript sources through tsx would add esbuild's keep-names wrapper to every closure created
 * per call and measure that instead.
 */

export * from 'switchyard';
export { createWorkerPool, type WorkerPool } from 'switchyard/executors';
export {
  createFileJournalStore,
  decideApproval,
  type InDoubtCall,
  type JournalStore,
  listInDoubtCalls,
  listPendingApprovals,
  openRunJournal,
  type PendingApproval,
  type RunJournal,
  resolveInDoubtCall,
} from 'switchyard/journal';
export type { GovernanceStack, GovernanceStackOptions } from 'switchyard/middleware';
export {
  GENESIS_HASH,
  LocalReceiptLog,
  receiptHash,
  type ToolCallReceipt,
  verifyReceipts,
} from 'switchyard/receipts';
export { createScriptedModel } from 'switchyard/testing';
export { addTool, waitTool } from './demo-tools.mjs';
