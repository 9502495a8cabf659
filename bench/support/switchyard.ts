/**
 * Benchmarks measure the compiled library (`npm run build` → dist/), as users run it. Running the
 * TypeScript sources through tsx would add esbuild's keep-names wrapper to every closure created
 * per call and measure that instead.
 */

export { createWorkerPool, type WorkerPool } from '../../dist/executors.js';
export * from '../../dist/index.js';
export type { GovernanceStack, GovernanceStackOptions } from '../../dist/middleware/index.js';
export {
  GENESIS_HASH,
  LocalReceiptLog,
  receiptHash,
  type ToolCallReceipt,
  verifyReceipts,
} from '../../dist/middleware/receipts/index.js';
export { createScriptedModel } from '../../dist/testing/index.js';
export { addTool, waitTool } from './demo-tools.mjs';
