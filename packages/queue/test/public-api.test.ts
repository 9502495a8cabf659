import { describe, expect, it } from 'vitest';
import { importInFreshProcess } from '../../../test/support/import-in-fresh-process.js';
import * as entry from '../src/index.js';

// The runtime names of @switchyard/queue, sorted: changing them is a deliberate edit of this list
// (and of the changelog).
const NAMES = [
  'DEFAULT_QUEUE',
  'createQueueExecutor',
  'createRedisJournalStore',
  'createTaskQueue',
  'onQueue',
  'startQueueWorker',
  'startTaskWorker',
];

describe('@switchyard/queue', () => {
  it('exports exactly its public names, none undefined', () => {
    expect(Object.keys(entry).sort()).toEqual(NAMES);
    expect(Object.entries(entry).filter(([, value]) => value === undefined)).toEqual([]);
  });

  it('loads no queue client until an executor or worker starts', () => {
    expect(
      importInFreshProcess('./packages/queue/src/index.ts', '^(bullmq|ioredis)(\\\\/|$)'),
    ).toBe('imported');
  });
});
