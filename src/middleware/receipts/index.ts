// `switchyard/receipts`: the hash-chained receipt log behind `withAuditLog`, and its verifier.

export { LocalReceiptLog, receiptLogPath } from './local-receipt-log.js';
export { type ChainedLine, chainReceipt, GENESIS_HASH, receiptHash } from './receipt-chain.js';
export {
  buildReceipt,
  type ChainedReceipt,
  RECEIPT_SCHEMA_VERSION,
  type ReceiptInput,
  type ReceiptSchemaVersion,
  type ReceiptStatus,
  type ReceiptUsage,
  redactKeys,
  type ToolCallReceipt,
} from './tool-call-receipt.js';
export { type ReceiptVerification, verifyReceipts } from './verify-receipts.js';
