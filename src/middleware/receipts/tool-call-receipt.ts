import type { AuditData } from '../../dispatch/audit.js';
import type { ToolCallEnvelope } from '../../dispatch/envelope.js';
import type { ModelTokens } from '../../dispatch/model-token-share.js';
import type { ToolCallResult } from '../../dispatch/result.js';
import type { ToolUsage } from '../../tools/tool-cost.js';
import { receiptValueHash } from './safe-canonical-json.js';

export { redactKeys } from './redact-keys.js';

/**
 * One tool call, recorded. A receipt is a file and wire format, so its field names stay
 * snake_case like the reference's `ToolCallReceipt` v1; `prev_hash` and `hash` chain the receipts of
 * one log so that an edited, deleted or reordered line is detected.
 */
export interface ToolCallReceipt {
  /**
   * How `args_hash` and `result_hash` were computed: `2`, SHA-256 of RFC 8785 canonical JSON; `1`,
   * of Switchyard's earlier canonical form (`canonicalJson(value, 1)`). A log keeps the version it
   * was started with.
   */
  readonly schema_version: ReceiptSchemaVersion;
  readonly session_id: string;
  readonly run_id: string | null;
  readonly tool_call_id: string;
  readonly tool_name: string;
  readonly iteration: number;
  readonly turn_index: number | null;
  readonly emit_order: number;
  readonly reason: string | null;
  readonly kind: string | null;
  readonly executor: string | null;
  readonly status: ReceiptStatus;
  readonly error_category: string | null;
  readonly duration_ms: number;
  /** SHA-256 of the canonical JSON of the arguments, redacted keys removed at any depth. */
  readonly args_hash: string;
  /** SHA-256 of the canonical JSON of the result value; null when there is none. */
  readonly result_hash: string | null;
  readonly audit: AuditData;
  readonly emitted_at: string;
  readonly model: string | null;
  readonly provider: string | null;
  /**
   * What the call cost, when its tool reported a cost (`ToolCallResult.usage`) or it carried a
   * share of its model turn's tokens (`ToolCallEnvelope.modelTokens`).
   */
  readonly usage?: ReceiptUsage;
  /**
   * What the hashes or the audit could not record as it was (a cycle, a BigInt, nesting too deep
   * for plain JSON tools), each with its path; absent when everything was plain JSON.
   */
  readonly hash_notes?: readonly string[];
}

/**
 * A call's cost as a receipt records it (snake_case, like the rest of the receipt): what its tool
 * reported, and its share of its model turn's tokens when it carried one as it was dispatched.
 * Every member is optional, so logs written before a member existed still read and verify.
 */
export interface ReceiptUsage {
  readonly tool_cost_usd?: number;
  readonly units?: number;
  readonly unit?: string;
  readonly undeclared_spend?: true;
  /** The call's share of its model turn's input tokens (`ToolCallEnvelope.modelTokens`). */
  readonly model_input_tokens?: number;
  /** The call's share of its model turn's output tokens. */
  readonly model_output_tokens?: number;
}

function receiptUsage(
  usage: ToolUsage | undefined,
  modelTokens: ModelTokens | undefined,
): ReceiptUsage | undefined {
  if (usage === undefined && modelTokens === undefined) return undefined;
  const recorded: { -readonly [Key in keyof ReceiptUsage]: ReceiptUsage[Key] } = {};
  if (usage?.toolCostUsd !== undefined) recorded.tool_cost_usd = usage.toolCostUsd;
  if (usage?.units !== undefined) recorded.units = usage.units;
  if (usage?.unit !== undefined) recorded.unit = usage.unit;
  if (usage?.undeclaredSpend) recorded.undeclared_spend = true;
  if (modelTokens !== undefined) {
    recorded.model_input_tokens = modelTokens.inputTokens;
    recorded.model_output_tokens = modelTokens.outputTokens;
  }
  return recorded;
}

/** The receipt format's versions; see `ToolCallReceipt.schema_version`. */
export type ReceiptSchemaVersion = 1 | 2;

/** The version new receipt logs are started with. */
export const RECEIPT_SCHEMA_VERSION: ReceiptSchemaVersion = 2;

/** The status a receipt records: the call's result status folded into the receipt schema's six. */
export type ReceiptStatus =
  | 'ok'
  | 'schema_violation'
  | 'consent_denied'
  | 'timeout'
  | 'cancelled'
  | 'error';

/** A receipt as written to a log: chained to the one before it. */
export interface ChainedReceipt extends ToolCallReceipt {
  readonly prev_hash: string;
  readonly hash: string;
}

function receiptStatus(result: ToolCallResult): ReceiptStatus {
  if (result.ok || result.status === 'ok') return 'ok';
  const words = [result.status, result.errorCategory];
  if (
    words.includes('schema_violation') ||
    words.includes('schema_validation') ||
    words.includes('tool_not_found')
  ) {
    return 'schema_violation';
  }
  if (words.includes('consent_denied')) return 'consent_denied';
  if (words.includes('timeout')) return 'timeout';
  if (words.includes('cancelled')) return 'cancelled';
  return 'error';
}

/** What `buildReceipt` makes a receipt of: the call, its result, and the log's settings. */
export interface ReceiptInput {
  readonly call: ToolCallEnvelope;
  readonly result: ToolCallResult;
  /** The audit to record. Default: the result's (`{}` when it has none). */
  readonly audit?: AuditData;
  readonly durationMs: number;
  readonly redact: ReadonlySet<string>;
  readonly emittedAt: string;
  /** The receipt's schema version (that of the log it goes to). Default `RECEIPT_SCHEMA_VERSION`. */
  readonly schemaVersion?: ReceiptSchemaVersion | undefined;
}

/** Builds the receipt of one finished call; never throws on what the arguments or result hold. */
export function buildReceipt({
  call,
  result,
  audit = result.audit ?? {},
  durationMs,
  redact,
  emittedAt,
  schemaVersion: version = RECEIPT_SCHEMA_VERSION,
}: ReceiptInput): ToolCallReceipt {
  const turn = call.turn;
  const toolRedact = call.annotations.safety?.redact ?? [];
  const keys = toolRedact.length === 0 ? redact : new Set([...redact, ...toolRedact]);
  const summary = typeof audit.summary === 'string' && audit.summary !== '' ? audit.summary : null;
  const kind = typeof audit.kind === 'string' ? audit.kind : (call.annotations.kind ?? null);
  const notes: string[] = [];
  const receipt: ToolCallReceipt = {
    schema_version: version,
    session_id: turn.sessionId,
    run_id: turn.runId === '' ? null : turn.runId,
    tool_call_id: call.callId,
    tool_name: result.toolName || call.toolName,
    iteration: Math.max(0, Math.trunc(turn.iteration)),
    turn_index: turn.iteration > 0 ? turn.iteration - 1 : null,
    emit_order: turn.emitOrder,
    reason: summary,
    kind,
    executor: result.executor ?? call.declaredExecutor,
    status: receiptStatus(result),
    error_category: result.errorCategory === '' ? null : result.errorCategory,
    duration_ms: Math.max(0, durationMs),
    args_hash: receiptValueHash(result.arguments ?? call.toolArgs, {
      redact: keys,
      version,
      notes,
      label: 'arguments',
    }),
    result_hash:
      result.result === null || result.result === undefined
        ? null
        : receiptValueHash(result.result, { redact: NO_KEYS, version, notes, label: 'result' }),
    audit,
    emitted_at: emittedAt,
    model: turn.model,
    provider: turn.provider,
  };
  const usage = receiptUsage(result.usage, call.modelTokens);
  if (usage !== undefined) Object.assign(receipt, { usage });
  return notes.length === 0 ? receipt : Object.assign(receipt, { hash_notes: notes });
}

const NO_KEYS: ReadonlySet<string> = new Set();
