import { performance } from 'node:perf_hooks';
import { type AuditData, mergeAudit } from '../dispatch/audit.js';
import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { type ToolCallResult, withAudit } from '../dispatch/result.js';
import type { ToolCaller } from '../dispatch/tool-caller.js';
import { type CancelledError, errorMessage, InvalidOptionError } from '../errors.js';
import { checkBoolean, checkPositive } from '../option-checks.js';
import { cancelledResultOf } from './cancelled-result-of.js';
import { isoTime } from './iso-time.js';
import { type LayerStage, Passage, stageLayer } from './layer-stage.js';
import { LocalReceiptLog, receiptLogPath } from './receipts/local-receipt-log.js';
import { buildReceipt, type ToolCallReceipt } from './receipts/tool-call-receipt.js';

/** Receives each receipt; may be async. Its failures never lose the tool's result. */
export type ReceiptSink = (
  receipt: ToolCallReceipt,
  call: ToolCallEnvelope,
) => void | Promise<void>;

/** Options of `withAuditLog`: where receipts go and what they leave out. */
export interface AuditLogOptions {
  /**
   * `local`: an append-only, hash-chained JSONL log per session; `cloud`: the receipt rides on
   * `result.audit.receipt` (and so on the `tool_call_audit` event); `both`; or a function.
   */
  readonly sink: ReceiptSink | 'local' | 'cloud' | 'both';
  /** Argument keys removed (at any depth) before the arguments are hashed. */
  readonly redact?: readonly string[];
  /** Where `local` logs go. Default `.switchyard/receipts` under the working directory. */
  readonly directory?: string;
  /**
   * Return each result only once its receipt line is written, and record a failed write on
   * that very result. Default false: the receipt is chained at once and written with the other
   * lines of the same turn of the event loop, at its end, or, while an earlier write is in flight,
   * as soon as it completes (a failed write is recorded on the calls after it, and `close()`
   * rejects with it).
   */
  readonly waitForWrite?: boolean;
  /**
   * Characters of local receipt lines not yet written past which results wait for their own
   * receipt's write (backpressure: a burst slows to the disk's pace instead of queueing without
   * bound). It is also the most a process killed with `kill -9` can lose. Default 8 Mi (8 388 608).
   */
  readonly maxPendingChars?: number;
  /** Monotonic clock in ms (durations). Default `performance.now`. */
  readonly now?: () => number;
  /** Wall clock for `emitted_at`. Default `Date.now`. */
  readonly wallClock?: () => number;
}

/** The audit layer, with `flush()` and `close()` for its local logs. */
export type AuditLogCaller = ToolCaller & {
  /** Resolves once every receipt recorded so far is written; rejects with a failed write. */
  flush(): Promise<void>;
  /** Writes what is pending and closes the logs; rejects with a failed write. */
  close(): Promise<void>;
};

const SINK_WORDS = ['local', 'cloud', 'both'];
const LAYER = 'with_audit_log';

/**
 * The audit with `key` set. Runs on every call: `{ ...audit, key }` costs ~0.6 µs on Node 20 (a
 * property a spread copy does not have yet is added through a slow runtime call), Object.assign
 * a tenth of that.
 */
function auditWith(audit: AuditData, key: string, value: unknown): AuditData {
  return Object.assign({}, audit, { [key]: value });
}

/**
 * Records one typed receipt per call — including calls inner layers short-circuited, calls the
 * executor refused, and cancelled calls (recorded, then the cancellation propagates). Put it
 * outermost so it sees everything. With a local log each receipt carries the hash of the one
 * before it; `verifyReceipts(path)` (or `switchyard verify <file>`) names the first broken line.
 * Local receipts are chained as calls finish and written a turn of the event loop at a time, so
 * a call does not wait for the disk (unless `waitForWrite`); `close()` writes what is pending.
 * A sink that fails never loses the result: the failure is recorded in `audit.layers` (for a
 * local log's failed write, on the calls recorded after it, and `close()` rejects with it).
 *
 * @example
 * const audit = withAuditLog({ sink: 'local', redact: ['token'] });
 * const caller = composeToolCallers([audit, withConsent(ask)]);
 */
export function withAuditLog(
  sinkOrOptions: AuditLogOptions['sink'] | AuditLogOptions,
): AuditLogCaller {
  const stage = auditLogStage(sinkOrOptions);
  return Object.assign(stageLayer(stage), { flush: stage.flush, close: stage.close });
}

/** A call the audit layer is recording: when it reached the layer. */
interface Visit {
  readonly call: ToolCallEnvelope;
  readonly started: number;
}

/** The stage of `withAuditLog`, with `flush()` and `close()` for its local logs. */
export function auditLogStage(
  sinkOrOptions: AuditLogOptions['sink'] | AuditLogOptions,
): LayerStage & Pick<AuditLogCaller, 'flush' | 'close'> {
  const options: AuditLogOptions =
    typeof sinkOrOptions === 'object' && sinkOrOptions !== null
      ? sinkOrOptions
      : { sink: sinkOrOptions };
  const { sink } = options;
  if (typeof sink !== 'function' && !SINK_WORDS.includes(sink as string)) {
    throw new InvalidOptionError(
      'sink',
      `withAuditLog: sink must be a function or one of local/cloud/both; got ${JSON.stringify(sink)}`,
    );
  }
  const redact = new Set(options.redact ?? []);
  const directory = options.directory ?? '.switchyard/receipts';
  const now = options.now ?? (() => performance.now());
  const wallClock = options.wallClock ?? Date.now;
  const waitForWrite = checkBoolean('withAuditLog', 'waitForWrite', options.waitForWrite ?? false);
  const maxPendingChars = checkPositive(
    'withAuditLog',
    'maxPendingChars',
    options.maxPendingChars ?? 8 * 1024 * 1024,
    { integer: true },
  );
  const local = sink === 'local' || sink === 'both';
  const cloud = sink === 'cloud' || sink === 'both';
  /** Open logs by session id. */
  const logs = new Map<string, LocalReceiptLog>();
  /**
   * Logs that could not be opened (a read-only directory, a broken last line), by session id:
   * their calls record the failure without trying again, and `close()` rejects with it.
   */
  const unopened = new Map<string, unknown>();

  function logFor(sessionId: string): LocalReceiptLog {
    let log = logs.get(sessionId);
    if (log === undefined) {
      if (unopened.has(sessionId)) throw unopened.get(sessionId);
      try {
        log = new LocalReceiptLog(receiptLogPath(directory, sessionId), maxPendingChars);
      } catch (error) {
        unopened.set(sessionId, error);
        throw error;
      }
      logs.set(sessionId, log);
    }
    return log;
  }

  /** The layer's copy of a result whose receipt failed to go out: the failure is on its audit. */
  function sinkFailed(result: ToolCallResult, audit: AuditData, error: unknown): ToolCallResult {
    return withAudit(
      result,
      mergeAudit(audit, {
        layers: [{ name: LAYER, status: 'sink_error', error: errorMessage(error) }],
      }),
    );
  }

  /**
   * Records the call's receipt and returns the result to hand up. Synchronous unless it has to
   * wait (for its write, or for a sink function): most calls pay no promise for their receipt.
   */
  function record(visit: Visit, result: ToolCallResult): ToolCallResult | Promise<ToolCallResult> {
    const { call } = visit;
    let audit = result.audit ?? {};
    let receipt: ToolCallReceipt;
    let written: Promise<void> | undefined;
    try {
      const log = local ? logFor(call.turn.sessionId) : undefined;
      if (log !== undefined) audit = auditWith(audit, 'receiptUri', log.uri);
      receipt = buildReceipt({
        call,
        result,
        audit,
        durationMs: now() - visit.started,
        redact,
        emittedAt: isoTime(wallClock()),
        schemaVersion: log?.schemaVersion,
      });
      if (log !== undefined) {
        // Chained now, in call order; the line goes out with the rest of this turn's.
        const line = log.record(receipt);
        if (waitForWrite || log.backlogged) written = line;
      }
    } catch (error) {
      return sinkFailed(result, audit, error);
    }
    if (written === undefined && typeof sink !== 'function') {
      return recorded(result, audit, receipt);
    }
    return finish({ call, result, audit, receipt, written });
  }

  /** The rest of `record` for a call that waits for its write or for a sink function. */
  async function finish(pending: {
    readonly call: ToolCallEnvelope;
    readonly result: ToolCallResult;
    readonly audit: AuditData;
    readonly receipt: ToolCallReceipt;
    readonly written: Promise<void> | undefined;
  }): Promise<ToolCallResult> {
    const { result, audit, receipt } = pending;
    try {
      if (pending.written !== undefined) await pending.written;
      if (typeof sink === 'function') await sink(receipt, pending.call);
    } catch (error) {
      return sinkFailed(result, audit, error);
    }
    return recorded(result, audit, receipt);
  }

  function recorded(
    result: ToolCallResult,
    audit: AuditData,
    receipt: ToolCallReceipt,
  ): ToolCallResult {
    return withAudit(result, cloud ? auditWith(audit, 'receipt', receipt) : audit);
  }

  return {
    name: LAYER,
    enter(call) {
      const visit: Visit = { call, started: now() };
      return new Passage(call, {
        leave: (result) => record(visit, result),
        async failed(error) {
          const cancelled = cancelledResultOf(call, error);
          if (cancelled === undefined) throw error;
          // The receipt (and a sink failure) ride on the cancellation to the call's result.
          const { audit } = await record(visit, cancelled);
          throw audit === undefined ? error : (error as CancelledError).withCallAudit(audit);
        },
      });
    },
    async flush() {
      await Promise.all([...logs.values()].map((log) => log.flush()));
    },
    async close() {
      const open = [...logs.values()];
      const failedOpen = unopened.values().next();
      logs.clear();
      unopened.clear();
      // Every log is closed, even when another one's writes failed; then the first failure.
      const closed = await Promise.allSettled(open.map((log) => log.close()));
      const failed = closed.find((outcome) => outcome.status === 'rejected');
      if (failed !== undefined) throw failed.reason;
      if (failedOpen.done !== true) throw failedOpen.value;
    },
  };
}
