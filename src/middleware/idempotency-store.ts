import type { ToolCallResult } from '../dispatch/result.js';
import { InvalidOptionError } from '../errors.js';

/**
 * Where `withIdempotency` keeps successful results. Any async key-value store fits (Redis, a
 * database, a file); entries older than their `ttlMs` must no longer be returned.
 */
export interface IdempotencyStore {
  /** The result kept under `key`, if it has not expired. */
  get(key: string): Promise<ToolCallResult | undefined>;
  /** Keeps `result` under `key` for `ttlMs`. */
  set(key: string, result: ToolCallResult, ttlMs: number): Promise<void>;
  /** Forgets `key`. */
  delete(key: string): Promise<void>;
}

/** Options of `createMemoryIdempotencyStore`. */
export interface MemoryIdempotencyStoreOptions {
  /** Most entries kept; the least recently used goes first. Default 256. */
  readonly maxEntries?: number;
  /** Clock for expiry, in ms. Default `Date.now`. */
  readonly now?: () => number;
}

/** `get` and `set` of `IdempotencyStore`, without promises. */
export interface SyncIdempotencyStore {
  get(key: string): ToolCallResult | undefined;
  set(key: string, result: ToolCallResult, ttlMs: number): void;
}

/**
 * The synchronous side of each built-in store: `withIdempotency` reads and writes it directly
 * instead of paying for two promises and their microtask turns on every call. Keyed by the store
 * object itself, so a wrapper or copy of a built-in store (with its own `get`) is used as written.
 */
const syncSides = new WeakMap<IdempotencyStore, SyncIdempotencyStore>();

/** The synchronous side of a built-in store; undefined for any other store. */
export function syncSideOf(store: IdempotencyStore): SyncIdempotencyStore | undefined {
  return syncSides.get(store);
}

interface Entry {
  readonly result: ToolCallResult;
  readonly expiresAt: number;
}

/**
 * An in-memory store: least-recently-used eviction past `maxEntries`, expiry after each entry's
 * TTL (checked on read, so no timers are left running).
 *
 * @example
 * const store = createMemoryIdempotencyStore({ maxEntries: 1000 });
 * withIdempotency((call) => call.toolArgs.requestId as string, { store });
 */
export function createMemoryIdempotencyStore(
  options: MemoryIdempotencyStoreOptions = {},
): IdempotencyStore & { readonly size: number } {
  const maxEntries = options.maxEntries ?? 256;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw new InvalidOptionError(
      'maxEntries',
      `createMemoryIdempotencyStore: maxEntries must be an integer ≥ 1; got ${String(maxEntries)}`,
    );
  }
  const now = options.now ?? Date.now;
  // A Map iterates in insertion order: re-inserting on read keeps the oldest-used entry first.
  const entries = new Map<string, Entry>();

  const sync: SyncIdempotencyStore = {
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      entries.delete(key);
      if (entry.expiresAt <= now()) return undefined;
      entries.set(key, entry);
      return entry.result;
    },
    set(key, result, ttlMs) {
      entries.delete(key);
      entries.set(key, { result, expiresAt: now() + ttlMs });
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next().value as string;
        entries.delete(oldest);
      }
    },
  };

  const store: IdempotencyStore & { readonly size: number } = {
    get size() {
      return entries.size;
    },
    async get(key) {
      return sync.get(key);
    },
    async set(key, result, ttlMs) {
      sync.set(key, result, ttlMs);
    },
    async delete(key) {
      entries.delete(key);
    },
  };
  syncSides.set(store, sync);
  return store;
}
