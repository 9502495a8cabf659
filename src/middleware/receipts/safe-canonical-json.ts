import { type CanonicalVersion, canonicalHash, sha256Hex } from '../../tools/canonical-json.js';
import { writeJson } from '../../tools/write-json.js';
import { redactKeys } from './redact-keys.js';

/** What a value's canonical text had to leave out or stand in for; empty when nothing. */
export type CanonicalNotes = string[];

/**
 * Canonical JSON of any value, never throwing: for JSON values it gives exactly the text of
 * `canonicalJson` (of `version`, default 2, RFC 8785); what JSON cannot carry is written as a
 * stand-in and named in `notes` with its path (see `writeJson`). Keys in `redact` are
 * left out at any depth.
 */
export function safeCanonicalJson(
  value: unknown,
  notes: CanonicalNotes,
  redact: ReadonlySet<string> = new Set(),
  version: CanonicalVersion = 2,
): string {
  return writeJson(value, { canonical: version, redact, notes });
}

/** How `receiptValueHash` hashes a value and where it notes what it could not hash as it was. */
export interface ReceiptValueHashing {
  /** Keys left out at any depth. */
  readonly redact: ReadonlySet<string>;
  /** The canonical form (the receipt's schema version). */
  readonly version: CanonicalVersion;
  /** Where stand-ins are named, each prefixed with `label`. */
  readonly notes: CanonicalNotes;
  readonly label: string;
}

/**
 * SHA-256 of a value's canonical JSON for a receipt. Plain JSON values take the fast path
 * (`canonicalHash`); a value it cannot take (a cycle, a BigInt, a throwing getter) is hashed from
 * `safeCanonicalJson` instead, and what stood in for what is added to `notes`. Never throws.
 */
export function receiptValueHash(value: unknown, hashing: ReceiptValueHashing): string {
  const { redact, version, notes, label } = hashing;
  try {
    return canonicalHash(redactKeys(value, redact), version);
  } catch {
    const found: CanonicalNotes = [];
    const hash = sha256Hex(safeCanonicalJson(value, found, redact, version));
    for (const note of found) notes.push(`${label} ${note}`);
    return hash;
  }
}
