import { safeCanonicalJson } from './safe-canonical-json.js';
import type { ToolCallReceipt } from './tool-call-receipt.js';

/**
 * The JSON text of a receipt (without its links), whatever its audit holds. A layer's audit data
 * that JSON cannot write (a cycle, a BigInt, nesting too deep) is written as its safe canonical
 * copy, and what was replaced is named in `hash_notes`; if even that fails, the audit is replaced
 * by a note. The receipt is never dropped.
 */
export function receiptBody(receipt: ToolCallReceipt): string {
  try {
    return JSON.stringify(receipt);
  } catch {
    const notes = [...(receipt.hash_notes ?? [])];
    const found: string[] = [];
    let audit: ToolCallReceipt['audit'];
    try {
      audit = JSON.parse(safeCanonicalJson(receipt.audit, found)) as ToolCallReceipt['audit'];
      for (const note of found) notes.push(`audit ${note}`);
      return JSON.stringify(Object.assign({}, receipt, { audit, hash_notes: notes }));
    } catch {
      notes.push('audit could not be written as JSON and was left out');
      return JSON.stringify(Object.assign({}, receipt, { audit: {}, hash_notes: notes }));
    }
  }
}
