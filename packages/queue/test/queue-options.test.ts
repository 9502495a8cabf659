// Bad options fail at construction with a typed error naming the option; no Redis is reached.

import { createToolRegistry } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { thrownBy } from '../../../test/support/thrown-by.js';
import { createQueueExecutor, onQueue, startQueueWorker } from '../src/index.js';
import { tools } from './fixtures/queue-tools.js';

describe('queue options', () => {
  it('refuses a connection that is not a redis URL, naming the option', () => {
    const error = thrownBy(() => createQueueExecutor({ connection: 'localhost:6379' }));
    expect(error).toMatchObject({ code: 'SY_ERR_INVALID_OPTION', option: 'connection' });
  });

  it('refuses a queue name BullMQ keys cannot hold', () => {
    const error = thrownBy(() =>
      createQueueExecutor({ connection: 'redis://127.0.0.1:1', queue: 'a:b' }),
    );
    expect(error).toMatchObject({ code: 'SY_ERR_INVALID_OPTION', option: 'queue' });
  });

  it('refuses a worker without a registry or with a bad concurrency', () => {
    expect(
      thrownBy(() => startQueueWorker({ connection: 'redis://127.0.0.1:1' } as never)),
    ).toMatchObject({
      code: 'SY_ERR_INVALID_OPTION',
      option: 'registry',
    });
    const registry = createToolRegistry(tools);
    expect(
      thrownBy(() =>
        startQueueWorker({ registry, connection: 'redis://127.0.0.1:1', concurrency: 0 }),
      ),
    ).toMatchObject({ code: 'SY_ERR_INVALID_OPTION', option: 'concurrency' });
    expect(
      thrownBy(() =>
        startQueueWorker({ registry, connection: 'redis://127.0.0.1:1', shutdownGraceMs: -1 }),
      ),
    ).toMatchObject({ code: 'SY_ERR_INVALID_OPTION', option: 'shutdownGraceMs' });
  });

  it('refuses a queue tool whose queue name is unsafe', () => {
    const error = thrownBy(() =>
      createToolRegistry([{ ...tools[0]!, executor: { kind: 'queue', queue: 'gpu:1' } }]),
    );
    expect(error).toMatchObject({ code: 'SY_ERR_INVALID_TOOL_DEFINITION' });
  });

  it('sends a whole registry to the queue with onQueue, keeping everything else', () => {
    const inline = createToolRegistry(
      tools.map((tool) => ({ ...tool, executor: { kind: 'inline' } })),
    );
    const queued = onQueue(inline, 'gpu');
    expect(queued.list().map((tool) => tool.executor)).toEqual(
      inline.list().map(() => ({ kind: 'queue', queue: 'gpu' })),
    );
    expect(queued.list().map((tool) => [tool.name, tool.safety, tool.timeoutMs])).toEqual(
      inline.list().map((tool) => [tool.name, tool.safety, tool.timeoutMs]),
    );
  });
});
