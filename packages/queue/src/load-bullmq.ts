import { requireOptionalPeer } from 'switchyard/extension';

export type BullMq = typeof import('bullmq');
export type IoRedisModule = typeof import('ioredis');
export type RedisClient = import('ioredis').Redis;

const FEATURE = 'switchyard/queue';

/**
 * BullMQ, an optional peer loaded only by this subpath.
 * @throws MissingPeerDependencyError naming `bullmq` when it is not installed.
 */
export function loadBullMq(): BullMq {
  return requireOptionalPeer<BullMq>('bullmq', FEATURE);
}

/**
 * A plain ioredis client (the one BullMQ uses), for what BullMQ has no API for: the cancel channel
 * and the last id of an events stream.
 * @throws MissingPeerDependencyError naming `ioredis` when it is not installed.
 */
export function createRedisClient(url: string, options: Record<string, unknown> = {}): RedisClient {
  const ioredis = requireOptionalPeer<IoRedisModule>('ioredis', FEATURE);
  return new ioredis.Redis(url, { maxRetriesPerRequest: null, ...options });
}
