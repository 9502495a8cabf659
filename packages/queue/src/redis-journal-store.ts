import { checkString, optionsObject } from 'switchyard/extension';
import {
  claimOf,
  type JournalRecord,
  type JournalStore,
  parseRecord,
  type StoredRun,
  serializeRecord,
} from 'switchyard/journal';
import { createRedisClient, type RedisClient } from './load-bullmq.js';
import { checkQueueName, connectionOptions, DEFAULT_PREFIX } from './queue-connection.js';

/** Options of `createRedisJournalStore`. */
export interface RedisJournalStoreOptions {
  /** Where Redis is: a `redis://` or `rediss://` URL. */
  readonly connection: string;
  /** Prefix of the store's keys. Default `bull` (the queue's own). */
  readonly prefix?: string;
  /** Names this set of journals within the prefix. Default `journal`. */
  readonly name?: string;
}

/**
 * Appends a record unless what it claims is claimed already, atomically: a set of the run's
 * claims, the run's list of records, the set of runs. Returns 1 when appended, 0 when not.
 */
const APPEND = `
if ARGV[2] ~= '' and redis.call('SADD', KEYS[2], ARGV[2]) == 0 then return 0 end
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('SADD', KEYS[3], ARGV[3])
return 1`;

type JournalClient = RedisClient & {
  journalAppend(
    records: string,
    claims: string,
    runs: string,
    line: string,
    claim: string,
    runId: string,
  ): Promise<number>;
};

/**
 * The journal store for several processes or machines: the queue's Redis. A run's records are a
 * Redis list; what a record claims (`claimOf`: a call's intent, a decision) is checked and taken
 * in the same script as the append, so two processes running the same run never both start a
 * call, and no run needs a lock. Appends issued in one turn of the event loop travel in one round
 * trip (auto-pipelining): group commit.
 *
 * An append resolves once Redis has applied it; it survives a crash of Redis as far as Redis
 * persists its writes (`appendonly yes`; `appendfsync always` for every acknowledged write, the
 * default `everysec` may lose the last second). Keys: `<prefix>:<name>:<run>:records` and
 * `…:claims`, and the set `<prefix>:<name>:runs`.
 *
 * @throws InvalidOptionError for a connection that is not a redis URL or a bad prefix or name.
 * @throws MissingPeerDependencyError when `ioredis` is not installed.
 * @example
 * const store = createRedisJournalStore({ connection: 'redis://127.0.0.1:6379' });
 * const journal = await openRunJournal({ store, runId: 'order-42' });
 */
export function createRedisJournalStore(options: RedisJournalStoreOptions): JournalStore {
  const factory = 'createRedisJournalStore';
  const settings = optionsObject(factory, options);
  const { url } = connectionOptions(settings.connection);
  const prefix = checkQueueName(settings.prefix ?? DEFAULT_PREFIX, 'prefix');
  const name = checkQueueName(checkString(factory, 'name', settings.name ?? 'journal'), 'name');
  const base = `${prefix}:${name}`;
  const runsKey = `${base}:runs`;
  const keysOf = (runId: string) => ({
    records: `${base}:${encodeURIComponent(runId)}:records`,
    claims: `${base}:${encodeURIComponent(runId)}:claims`,
  });
  let client: JournalClient | undefined;
  function redis(): JournalClient {
    if (client === undefined) {
      client = createRedisClient(url, { enableAutoPipelining: true }) as JournalClient;
      client.on('error', ignore);
      client.defineCommand('journalAppend', { numberOfKeys: 3, lua: APPEND });
    }
    return client;
  }

  async function readRecords(runId: string): Promise<JournalRecord[] | undefined> {
    const lines = await redis().lrange(keysOf(runId).records, 0, -1);
    if (lines.length === 0) return undefined;
    return lines.flatMap((line) => parseRecord(line) ?? []);
  }

  return {
    async open(runId): Promise<StoredRun> {
      const keys = keysOf(runId);
      const records = (await readRecords(runId)) ?? [];
      const pending = new Set<Promise<unknown>>();
      return {
        runId,
        records,
        append(record) {
          const appended = redis()
            .journalAppend(
              keys.records,
              keys.claims,
              runsKey,
              serializeRecord(record),
              claimOf(record) ?? '',
              runId,
            )
            .then((answer) => answer === 1);
          const tracked = appended.finally(() => pending.delete(tracked));
          pending.add(tracked);
          return appended;
        },
        async close() {
          await Promise.allSettled([...pending]);
        },
      };
    },
    read: readRecords,
    async list() {
      return (await redis().smembers(runsKey)).sort();
    },
    async close() {
      const open = client;
      client = undefined;
      if (open !== undefined) await open.quit().catch(() => open.disconnect());
    },
  };
}

function ignore(): void {}
