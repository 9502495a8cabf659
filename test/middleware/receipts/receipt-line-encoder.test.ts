import { describe, expect, it } from 'vitest';
import { chainReceipt, GENESIS_HASH } from '../../../src/middleware/receipts/receipt-chain.js';
import { ReceiptLineEncoder } from '../../../src/middleware/receipts/receipt-line-encoder.js';
import type { ToolCallReceipt } from '../../../src/middleware/receipts/tool-call-receipt.js';

const receipt = (audit: ToolCallReceipt['audit']): ToolCallReceipt => ({
  schema_version: 1,
  session_id: 'séance ✓',
  run_id: null,
  tool_call_id: 'call 😀',
  tool_name: 'add',
  iteration: 0,
  turn_index: null,
  emit_order: 0,
  reason: null,
  kind: null,
  executor: 'inline',
  status: 'ok',
  error_category: null,
  duration_ms: 0.25,
  args_hash: 'a'.repeat(64),
  result_hash: null,
  audit,
  emitted_at: new Date(0).toISOString(),
  model: null,
  provider: null,
});

describe('ReceiptLineEncoder', () => {
  it('gives the hash and line of chainReceipt, as UTF-8 bytes, small or large', () => {
    const encoder = new ReceiptLineEncoder();
    let prevHash = GENESIS_HASH;
    // The last one is larger than the encoder's scratch buffer: it gets a buffer of its own.
    for (const audit of [{}, { note: 'é\u2028😀' }, { text: '✓'.repeat(40_000) }, { n: 1 }]) {
      const expected = chainReceipt(receipt(audit), prevHash);
      const hash = encoder.encode(JSON.stringify(receipt(audit)), prevHash);
      expect(hash).toBe(expected.receipt.hash);
      expect(encoder.line.toString('utf8')).toBe(expected.line);
      prevHash = hash;
    }
  });
});
