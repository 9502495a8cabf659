import type { AuditData, AuditLayer } from '../dispatch/audit.js';
import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { type ToolCallResult, withAudit } from '../dispatch/result.js';
import type { ToolCaller } from '../dispatch/tool-caller.js';
import { errorMessage, InvalidOptionError } from '../errors.js';
import {
  checkFunction,
  checkNonNegative,
  checkOptionalFunction,
  checkString,
  optionsObject,
} from '../option-checks.js';
import {
  createMemoryIdempotencyStore,
  type IdempotencyStore,
  syncSideOf,
} from './idempotency-store.js';
import { type Entered, type LayerStage, Passage, stageLayer } from './layer-stage.js';
import { raceAbort } from './race-abort.js';
import { isCertainlyRefused } from './refused-call.js';

/** Names the operation a call performs; equal keys mean "the same call". Empty or nullish: no caching. */
export type IdempotencyKey = (call: ToolCallEnvelope) => string | null | undefined;

/** Options of `withIdempotency`. */
export interface IdempotencyOptions {
  /** How long a result is reused, in ms. Default 10 minutes. */
  readonly ttlMs?: number;
  /** Where results are kept. Default: an in-memory LRU store. */
  readonly store?: IdempotencyStore;
  /** Size of the default store. Default 256. */
  readonly maxEntries?: number;
  /** Clock of the default store, in ms. Default `Date.now`. */
  readonly now?: () => number;
  /** Prefix of store keys, so stacks can share one store. Default `tool_middleware`. */
  readonly namespace?: string;
}

/** What one execution left for the calls waiting on it; `result` undefined when it failed. */
interface Flight {
  readonly result: ToolCallResult | undefined;
  readonly fromCache: boolean;
}

/** What a failed or cancelled execution leaves: nothing to share. */
const NOTHING_TO_SHARE: Flight = Object.freeze({ result: undefined, fromCache: false });

/**
 * An execution in progress. Its promise is made only when a second call with the key arrives:
 * most keys are never contended, and those calls should not pay for a promise nobody awaits.
 */
class Execution {
  private settled: Promise<Flight> | undefined;
  private resolveSettled: ((flight: Flight) => void) | undefined;

  /** Resolves with what the execution leaves once it ends. */
  outcome(): Promise<Flight> {
    this.settled ??= new Promise<Flight>((resolve) => {
      this.resolveSettled = resolve;
    });
    return this.settled;
  }

  settle(flight: Flight): void {
    this.resolveSettled?.(flight);
  }
}

const FACTORY = 'withIdempotency';
const LAYER = 'with_idempotency';

/**
 * Reuses successful results. Calls whose `key(call)` matches a stored result (within `ttlMs`)
 * get a copy of it without running; concurrent calls with the same key share one execution (single
 * flight). Only `ok: true` results are stored. A reused result carries the receiving call's id,
 * position and arguments, `executionDurationMs: null`, and none of the inner layers' audit (they
 * did not run for it); the stored object is never mutated. A key function that throws or returns
 * an empty key, and a call the executor will refuse, run without the layer. A failing store
 * counts as a miss (`storeError` on the layer entry).
 *
 * Layer entry: `{ name: 'with_idempotency', status: 'hit' | 'miss' | 'shared', key, sourceCallId? }`.
 *
 * @example
 * withIdempotency((call) => `${call.toolName}:${canonicalJson(call.toolArgs)}`, { ttlMs: 60_000 });
 */
export function withIdempotency(key: IdempotencyKey, options?: IdempotencyOptions): ToolCaller {
  return stageLayer(idempotencyStage(key, options));
}

/** A call's key: the user's, and the store's (namespaced). */
interface Keys {
  readonly user: string;
  readonly store: string;
}

/** The stage of `withIdempotency`. */
export function idempotencyStage(key: IdempotencyKey, options?: IdempotencyOptions): LayerStage {
  checkFunction(FACTORY, 'key', key);
  const settings = optionsObject(FACTORY, options);
  const ttlMs = checkNonNegative(FACTORY, 'ttlMs', settings.ttlMs ?? 600_000);
  const namespace = checkString(FACTORY, 'namespace', settings.namespace ?? 'tool_middleware');
  const store = settings.store === undefined ? defaultStore(settings) : checkStore(settings);
  /** The built-in store's synchronous side: no promise per read and write. */
  const syncStore = syncSideOf(store);
  /** Executions in progress by store key: later calls with the key wait for them. */
  const inFlight = new Map<string, Execution>();

  function keyOf(call: ToolCallEnvelope): string | undefined {
    try {
      const value = key(call);
      return typeof value === 'string' && value !== '' ? value : undefined;
    } catch {
      return undefined;
    }
  }

  function reuse(
    call: ToolCallEnvelope,
    stored: ToolCallResult,
    layer: AuditLayer,
  ): ToolCallResult {
    const { attempts: _attempts, audit: _audit, ...rest } = stored;
    return {
      ...rest,
      toolCallId: call.callId,
      emitOrder: call.turn.emitOrder,
      arguments: call.toolArgs,
      executionDurationMs: null,
      audit: { layers: [{ ...layer, sourceCallId: stored.toolCallId }] },
    };
  }

  /** Runs the call as the execution for its key: from the store, or through the layers inside. */
  function lead(call: ToolCallEnvelope, keys: Keys): Entered | Promise<Entered> {
    const execution = new Execution();
    inFlight.set(keys.store, execution);
    let flight = NOTHING_TO_SHARE;
    const release = () => {
      inFlight.delete(keys.store);
      execution.settle(flight);
    };
    /** What the store answered (a failing store counts as a miss, `storeError` on the entry). */
    const looked = (cached: ToolCallResult | undefined, getError?: string): Entered => {
      if (cached !== undefined) {
        flight = { result: cached, fromCache: true };
        try {
          return reuse(call, cached, { name: LAYER, status: 'hit', key: keys.user });
        } finally {
          release();
        }
      }
      return new Passage(call, {
        leave(result, audit) {
          const missed = (storeError = getError) =>
            audit.record(
              result,
              storeError === undefined
                ? { name: LAYER, status: 'miss', key: keys.user }
                : { name: LAYER, status: 'miss', key: keys.user, storeError },
            );
          if (result.ok !== true) return missed();
          const stored: ToolCallResult = Object.freeze(withoutAudit(result));
          flight = { result: stored, fromCache: false };
          try {
            if (syncStore !== undefined) syncStore.set(keys.store, stored, ttlMs);
            else {
              return store.set(keys.store, stored, ttlMs).then(
                () => missed(),
                (error: unknown) => missed(errorMessage(error)),
              );
            }
          } catch (error) {
            return missed(errorMessage(error));
          }
          return missed();
        },
        done: release,
      });
    };
    // A store that fails, even by throwing synchronously, counts as a miss.
    try {
      if (syncStore !== undefined) return looked(syncStore.get(keys.store));
      return store.get(keys.store).then(
        (cached) => looked(cached),
        (error: unknown) => looked(undefined, errorMessage(error)),
      );
    } catch (error) {
      return looked(undefined, errorMessage(error));
    }
  }

  /** Waits for the execution in flight with the key, and shares its result or runs afresh. */
  async function join(call: ToolCallEnvelope, keys: Keys): Promise<Entered> {
    for (;;) {
      const running = inFlight.get(keys.store);
      if (running === undefined) return lead(call, keys);
      const flight = await raceAbort(running.outcome(), call.signal);
      if (flight.result !== undefined) {
        const status = flight.fromCache ? 'hit' : 'shared';
        return reuse(call, flight.result, { name: LAYER, status, key: keys.user });
      }
      // That execution failed or was cancelled: nothing to share, so run (or join) afresh.
    }
  }

  return {
    name: LAYER,
    enter(call) {
      if (isCertainlyRefused(call)) return new Passage(call);
      const user = keyOf(call);
      if (user === undefined) return new Passage(call);
      const keys: Keys = { user, store: `${namespace}:${user}` };
      return inFlight.has(keys.store) ? join(call, keys) : lead(call, keys);
    },
  };
}

/**
 * A copy of the result whose `audit` is undefined. Not `const { audit, ...rest } = result`: a rest
 * pattern that leaves keys out copies through a slow runtime call on Node 20 (~1 µs), on every
 * stored result; `withAudit` copies field by field.
 */
function withoutAudit(result: ToolCallResult): ToolCallResult {
  return withAudit(result, undefined as unknown as AuditData);
}

function defaultStore(settings: IdempotencyOptions): IdempotencyStore {
  const maxEntries = checkNonNegative(FACTORY, 'maxEntries', settings.maxEntries ?? 256, {
    integer: true,
  });
  if (maxEntries < 1) {
    throw new InvalidOptionError('maxEntries', `${FACTORY}: maxEntries must be ≥ 1; got 0`);
  }
  const now = checkOptionalFunction(FACTORY, 'now', settings.now);
  return createMemoryIdempotencyStore({ maxEntries, ...(now === undefined ? {} : { now }) });
}

function checkStore(settings: IdempotencyOptions): IdempotencyStore {
  const store = settings.store as Partial<IdempotencyStore>;
  for (const method of ['get', 'set', 'delete'] as const) {
    if (typeof store?.[method] !== 'function') {
      throw new InvalidOptionError(
        'store',
        `${FACTORY}: store must have async get, set and delete methods`,
      );
    }
  }
  for (const option of ['maxEntries', 'now'] as const) {
    if (settings[option] !== undefined) {
      throw new InvalidOptionError(
        option,
        `${FACTORY}: ${option} configures the built-in store; set it on your own store instead`,
      );
    }
  }
  return store as IdempotencyStore;
}
