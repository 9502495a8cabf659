import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createJsonlWriter, createSessionActor, LoopDetector } from '../../src/actors/index.js';
import type { ToolCallResult } from '../../src/index.js';
import { tempDir } from '../support/temp-dir.js';

describe('LoopDetector', () => {
  it('warns, then blocks, then skips identical calls with identical results', () => {
    const loop = new LoopDetector();
    const args = { path: 'a.txt' };
    expect(loop.beforeDispatch('read', args)).toEqual({ action: 'run' });
    expect(loop.afterDispatch('read', args, 'same')).toEqual({ action: 'none' });
    expect(loop.afterDispatch('read', { ...args }, 'same')).toMatchObject({
      action: 'warn',
      repeatCount: 2,
    });
    expect(loop.afterDispatch('read', args, 'same')).toMatchObject({
      action: 'block',
      repeatCount: 3,
    });
    const skip = loop.beforeDispatch('read', args);
    expect(skip).toMatchObject({ action: 'skip', repeatCount: 4 });
    expect(skip.action === 'skip' && skip.message).toContain('was NOT executed');
  });

  it('resets on a different result, and keys by canonical arguments', () => {
    const loop = new LoopDetector();
    loop.afterDispatch('read', { a: 1, b: 2 }, 'x');
    expect(loop.afterDispatch('read', { b: 2, a: 1 }, 'x').action).toBe('warn');
    expect(loop.afterDispatch('read', { a: 1, b: 2 }, 'y').action).toBe('none');
    expect(loop.afterDispatch('read', { a: 1, b: 2 }, 'x').action).toBe('none');
    expect(new LoopDetector({ warn: 0 }).afterDispatch('read', {}, 'x').action).toBe('none');
  });
});

describe('the session actor', () => {
  const result = (
    toolName: string,
    ok: boolean,
    errorCategory: string | null = null,
  ): ToolCallResult => ({
    ok,
    status: ok ? 'ok' : 'error',
    toolName,
    toolCallId: 'c',
    arguments: {},
    result: 'same',
    renderedResult: '',
    observation: '',
    error: null,
    errorCategory,
    executor: 'inline',
    executionDurationMs: 1,
    emitOrder: 0,
  });

  it('counts results, runs the loop detector and keeps promoted tools, one message at a time', async () => {
    const session = createSessionActor({ sessionId: 's1', maxPromoted: 2 });
    const verdicts = await Promise.all([
      session.afterDispatch(result('read', true)),
      session.afterDispatch(result('read', true)),
      session.afterDispatch(result('write', false, 'consent_denied')),
    ]);
    expect(verdicts.map((verdict) => verdict.action)).toEqual(['none', 'warn', 'none']);
    await session.promote(['a', 'b']);
    expect(await session.promote(['b', 'c'])).toEqual(['b', 'c']);
    expect(await session.snapshot()).toEqual({
      sessionId: 's1',
      counters: { calls: 3, ok: 2, failedByCategory: { permission_denied: 1 } },
      promotedTools: ['b', 'c'],
    });
    await session.stop();
  });
});

describe('the JSONL writer', () => {
  const tempFile = () => join(tempDir('switchyard-jsonl-'), 'log.jsonl');

  it('writes lines whole and in order when many appends arrive at once', async () => {
    const path = tempFile();
    const writer = createJsonlWriter(path);
    await Promise.all(
      Array.from({ length: 5000 }, (_, n) => writer.append({ n, text: 'é'.repeat(n % 50) })),
    );
    await writer.close();
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line).n)).toEqual(
      Array.from({ length: 5000 }, (_, n) => n),
    );
  });

  it('drops a torn last line when it opens a file, so appends start on a line boundary', async () => {
    const path = tempFile();
    writeFileSync(path, '{"n":0}\n{"n":1}\n{"n":2, "cut mid');
    const writer = createJsonlWriter(path);
    await writer.append({ n: 3 });
    await writer.close();
    expect(readFileSync(path, 'utf8')).toBe('{"n":0}\n{"n":1}\n{"n":3}\n');
  });

  it('leaves a readable file when its process is killed mid-burst', async () => {
    const path = tempFile();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', new URL('../fixtures/jsonl-burst.ts', import.meta.url).pathname, path],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const writer = createJsonlWriter(path);
    await writer.append({ n: 'after' });
    await writer.close();
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    const parsed = lines.map((line) => JSON.parse(line) as { n: number | string });
    expect(parsed.length).toBeGreaterThan(600);
    expect(parsed.at(-1)?.n).toBe('after');
    parsed.slice(0, -1).forEach((record, index) => {
      expect(record.n).toBe(index);
    });
  });
});
