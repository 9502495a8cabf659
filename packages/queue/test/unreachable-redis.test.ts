// What the queue's producers and workers do while Redis cannot be reached: they tell `onError`,
// keep retrying until it answers, and close at once when asked to before it ever did.
import { createToolRegistry } from 'switchyard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedisServer } from '../../../test/support/redis-server.js';
import { createTaskQueue, startQueueWorker, startTaskWorker } from '../src/index.js';

/** A Redis server that was started, so its port is known, and is now down. */
let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
  await redis.stop();
});
afterAll(() => redis.stop());

/** An `onError` and a promise of the first error it is told. */
function firstError() {
  let tell: (error: Error) => void = () => {};
  const first = new Promise<Error>((resolve) => {
    tell = resolve;
  });
  return { onError: (error: Error) => tell(error), first };
}

const registry = createToolRegistry([]);

describe('an unreachable Redis', () => {
  it('is told to a queue worker, which closes at once and rejects its ready', async () => {
    const errors = firstError();
    const worker = startQueueWorker({ registry, connection: redis.url, onError: errors.onError });
    expect(await errors.first).toMatchObject({ code: 'ECONNREFUSED' });
    await worker.close();
    await expect(worker.ready).rejects.toMatchObject({ code: 'SY_ERR_CANCELLED' });
  });

  it('is told to a task worker and a task queue, which close at once', async () => {
    const workerErrors = firstError();
    const worker = startTaskWorker({
      connection: redis.url,
      run: async () => 'never',
      onError: workerErrors.onError,
    });
    const queueErrors = firstError();
    const queue = createTaskQueue({ connection: redis.url, onError: queueErrors.onError });
    void queue.submit('t1', {});
    expect(await workerErrors.first).toMatchObject({ code: 'ECONNREFUSED' });
    expect(await queueErrors.first).toMatchObject({ code: 'ECONNREFUSED' });
    await Promise.all([worker.close(), queue.close()]);
  });

  it('is retried until it answers: a worker started while Redis is down takes jobs once it is up', async () => {
    const errors = firstError();
    const worker = startQueueWorker({ registry, connection: redis.url, onError: errors.onError });
    await errors.first;
    await redis.start();
    await worker.ready;
    await worker.close();
    await redis.stop();
  });
});
