import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidOptionError, JournalBusyError } from '../../src/errors.js';
import { createFileJournalStore, type JournalRecord } from '../../src/journal/index.js';
import { freshStore } from './support.js';

const intent = (key: string, attempt = 1): JournalRecord => ({
  type: 'intent',
  key,
  attempt,
  callId: `id-${key}`,
  toolName: 'charge',
  arguments: { amount: 5 },
  idempotencyKey: `sy-${key}`,
  at: 1,
});

describe('createFileJournalStore', () => {
  it('reads back what a run appended, in order, after the run is closed', async () => {
    const { store } = freshStore();
    const run = await store.open('run/1');
    const records: JournalRecord[] = [
      intent('a'),
      { type: 'turn', iteration: 0, deltas: [{ type: 'text', text: 'hi' }] },
      intent('b'),
    ];
    expect(await Promise.all(records.map((record) => run.append(record)))).toEqual([
      true,
      true,
      true,
    ]);
    await run.close();
    expect(await store.read('run/1')).toEqual(records);
    expect(await store.list()).toEqual(['run/1']);
    const again = await store.open('run/1');
    expect(again.records).toEqual(records);
    await again.close();
  });

  it('appends a claimed record once: a second intent for the same attempt is refused', async () => {
    const { store } = freshStore();
    const run = await store.open('r');
    expect(await run.append(intent('a'))).toBe(true);
    expect(await run.append(intent('a'))).toBe(false);
    expect(await run.append(intent('a', 2))).toBe(true);
    await run.close();
    // The claims hold across processes' opens: they are rebuilt from the records.
    const again = await store.open('r');
    expect(await again.append(intent('a'))).toBe(false);
    await again.close();
    expect((await store.read('r'))?.length).toBe(2);
  });

  it('drops a line cut off by a crash and appends after the last whole one', async () => {
    const { store, directory } = freshStore();
    const run = await store.open('r');
    await run.append(intent('a'));
    await run.close();
    const file = join(directory, 'r.jsonl');
    appendFileSync(file, '{"type":"intent","key":"b","att');
    const reopened = await store.open('r');
    expect(reopened.records).toEqual([intent('a')]);
    await reopened.append(intent('c'));
    await reopened.close();
    expect(await store.read('r')).toEqual([intent('a'), intent('c')]);
    expect(readFileSync(file, 'utf8').endsWith('\n')).toBe(true);
  });

  it('groups the records appended together into one write', async () => {
    const { store, directory } = freshStore();
    const run = await store.open('r');
    const writes: number[] = [];
    const appended = Array.from({ length: 50 }, (_, index) => run.append(intent(`k${index}`)));
    // None is written before the group goes out; all are written by the time the first resolves.
    writes.push(readFileSync(join(directory, 'r.jsonl'), 'utf8').length);
    await appended[0];
    writes.push(readFileSync(join(directory, 'r.jsonl'), 'utf8').split('\n').length - 1);
    await Promise.all(appended);
    await run.close();
    expect(writes).toEqual([0, 50]);
  });

  it('flushes to disk with durability machine, and reads back the same', async () => {
    const { directory } = freshStore();
    const store = createFileJournalStore({ directory, durability: 'machine' });
    const run = await store.open('r');
    await Promise.all([run.append(intent('a')), run.append(intent('b'))]);
    await run.append(intent('c'));
    await run.close();
    expect((await store.read('r'))?.map((record) => (record as { key: string }).key)).toEqual([
      'a',
      'b',
      'c',
    ]);
  });

  it('refuses a run a live process has open, and takes over one whose holder died', async () => {
    const { store, directory } = freshStore();
    const run = await store.open('r');
    await expect(store.open('r')).rejects.toSatisfy((error) => JournalBusyError.isInstance(error));
    await run.close();
    // A lock left by a process killed before it could release it: its pid no longer runs.
    const child = spawn(process.execPath, ['-e', '0']);
    await once(child, 'exit');
    writeFileSync(join(directory, 'r.jsonl.lock'), `${child.pid} ${hostname()} x`);
    const taken = await store.open('r');
    await taken.close();
  });

  it('rejects options that are not a directory and a durability it knows', () => {
    expect(() => createFileJournalStore({ directory: '' })).toThrow(InvalidOptionError);
    expect(() =>
      createFileJournalStore({ directory: '/tmp/x', durability: 'always' as 'machine' }),
    ).toThrow(InvalidOptionError);
  });

  it('lists no runs for a directory that does not exist yet', async () => {
    const { store } = freshStore();
    expect(await store.list()).toEqual([]);
    expect(await store.read('nothing')).toBeUndefined();
  });
});
