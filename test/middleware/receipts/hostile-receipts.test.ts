import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  composeToolCallers,
  createDispatcher,
  createToolRegistry,
  defineTool,
  type JsonValue,
  type ProposedCall,
  type ToolCaller,
  withAuditLog,
} from '../../../src/index.js';
import { type ChainedReceipt, verifyReceipts } from '../../../src/middleware/receipts/index.js';
import { canonicalHash } from '../../../src/tools/canonical-json.js';
import { tempDir } from '../../support/temp-dir.js';

const OBJECT = { type: 'object' } as const;
const tool = (name: string, handler: () => unknown) =>
  defineTool({ name, description: name, inputSchema: OBJECT, handler });

const cyclic = () => {
  const node: Record<string, unknown> = { name: 'loop' };
  node.self = node;
  return node;
};
const registry = createToolRegistry([
  tool('ok', () => 'fine'),
  tool('cyclic', cyclic),
  tool('bigint', () => ({ count: 10n })),
  tool('function', () => ({ run: () => 1, value: 2 })),
]);

function deepArgument(depth: number): JsonValue {
  let value: JsonValue = 1;
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
}

function linesOf(path: string): ChainedReceipt[] {
  return readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as ChainedReceipt);
}

const openFds = () => readdirSync('/proc/self/fd').length;

describe('receipts of hostile calls', () => {
  it('writes one receipt per call for deep arguments and cyclic, BigInt or function results', async () => {
    const dir = tempDir('receipts-hostile-');
    const audit = withAuditLog({ sink: 'local', directory: dir });
    const dispatcher = createDispatcher({ registry, caller: audit });
    const calls: ProposedCall[] = [
      { id: 'deep', name: 'ok', arguments: { path: deepArgument(5_000) } },
      { id: 'cycle', name: 'cyclic', arguments: {} },
      { id: 'big', name: 'bigint', arguments: {} },
      { id: 'fn', name: 'function', arguments: {} },
    ];
    const results = [];
    for (const call of calls) results.push(await dispatcher.dispatch(call, { sessionId: 's' }));
    await audit.close();

    for (const result of results) expect(result.audit?.layers ?? []).toEqual([]);
    const lines = linesOf(join(dir, 's.jsonl'));
    expect(lines.map((line) => line.tool_call_id)).toEqual(['deep', 'cycle', 'big', 'fn']);
    expect(verifyReceipts(join(dir, 's.jsonl'))).toMatchObject({ ok: true, verifiedLines: 4 });
    expect(lines[0]?.hash_notes).toBeUndefined();
    expect(lines[1]?.hash_notes).toEqual(['result $.self: cycle']);
    expect(lines[2]?.hash_notes).toEqual(['result $.count: BigInt']);
    expect(lines[3]?.result_hash).toBe(canonicalHash({ value: 2 }));
  });

  it('writes a receipt for every call under a layer that resolves to undefined, and blames below itself', async () => {
    const dir = tempDir('receipts-undefined-');
    const audit = withAuditLog({ sink: 'local', directory: dir });
    const careless: ToolCaller = async function careless(call, next) {
      await next(call);
      return undefined as never;
    };
    const dispatcher = createDispatcher({
      registry,
      caller: composeToolCallers([audit, careless]),
    });
    const results = await Promise.all(
      Array.from({ length: 1_000 }, (_, index) =>
        dispatcher.dispatch({ id: `u${index}`, name: 'ok', arguments: {} }, { sessionId: 'u' }),
      ),
    );
    await audit.close();

    expect(linesOf(join(dir, 'u.jsonl'))).toHaveLength(1_000);
    for (const result of results.slice(0, 3)) {
      expect(result.ok).toBe(false);
      const blamed = (result.audit?.layers ?? []).filter((layer) => layer.status === 'exception');
      expect(blamed.map((layer) => layer.name)).not.toContain('with_audit_log');
    }
  });

  it('reopens a log whose last line is over 1 MiB, and continues its chain', async () => {
    const dir = tempDir('receipts-large-');
    const reason: ToolCaller = async (call, next) => ({
      ...(await next(call)),
      audit: { summary: '€'.repeat(400_000) },
    });
    const first = withAuditLog({ sink: 'local', directory: dir });
    await createDispatcher({ registry, caller: composeToolCallers([first, reason]) }).dispatch(
      { id: 'big', name: 'ok', arguments: {} },
      { sessionId: 'l' },
    );
    await first.close();

    const second = withAuditLog({ sink: 'local', directory: dir });
    const dispatcher = createDispatcher({ registry, caller: second });
    const before = openFds();
    const results = [];
    for (let index = 0; index < 50; index += 1)
      results.push(
        await dispatcher.dispatch(
          { id: `n${index}`, name: 'ok', arguments: {} },
          { sessionId: 'l' },
        ),
      );
    expect(openFds()).toBeLessThanOrEqual(before + 2);
    await second.close();

    for (const result of results) expect(result.audit?.layers ?? []).toEqual([]);
    const path = join(dir, 'l.jsonl');
    expect(readFileSync(path).length).toBeGreaterThan(1024 * 1024);
    expect(verifyReceipts(path)).toMatchObject({ ok: true, verifiedLines: 51 });
  });

  it('leaks no file descriptor per call when a log cannot be reopened, and close() rejects', async () => {
    const dir = tempDir('receipts-broken-');
    writeFileSync(join(dir, 'b.jsonl'), 'not a receipt\n');
    const audit = withAuditLog({ sink: 'local', directory: dir });
    const dispatcher = createDispatcher({ registry, caller: audit });
    await dispatcher.dispatch({ id: 'warm', name: 'ok', arguments: {} }, { sessionId: 'b' });
    const before = openFds();
    for (let index = 0; index < 100; index += 1) {
      const result = await dispatcher.dispatch(
        { id: `b${index}`, name: 'ok', arguments: {} },
        { sessionId: 'b' },
      );
      expect(result).toMatchObject({ ok: true, result: 'fine' });
      expect(result.audit?.layers).toEqual([expect.objectContaining({ status: 'sink_error' })]);
    }
    expect(openFds()).toBeLessThanOrEqual(before + 2);
    await expect(audit.close()).rejects.toBeInstanceOf(SyntaxError);
  });

  it('close() rejects when the log directory cannot be written and no receipt was', async () => {
    const dir = tempDir('receipts-unwritable-');
    writeFileSync(join(dir, 'a-file'), '');
    const audit = withAuditLog({ sink: 'local', directory: join(dir, 'a-file', 'receipts') });
    const dispatcher = createDispatcher({ registry, caller: audit });
    const result = await dispatcher.dispatch(
      { id: 'r', name: 'ok', arguments: {} },
      { sessionId: 'r' },
    );
    expect(result).toMatchObject({ ok: true, result: 'fine' });
    await expect(audit.close()).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it('makes results wait for their receipt once the unwritten backlog passes maxPendingChars', async () => {
    const dir = tempDir('receipts-backlog-');
    const audit = withAuditLog({ sink: 'local', directory: dir, maxPendingChars: 1 });
    const dispatcher = createDispatcher({ registry, caller: audit });
    for (let index = 0; index < 3; index += 1) {
      await dispatcher.dispatch({ id: `p${index}`, name: 'ok', arguments: {} }, { sessionId: 'p' });
      expect(linesOf(join(dir, 'p.jsonl'))).toHaveLength(index + 1);
    }
    await audit.close();
  });

  it('refuses a maxPendingChars that is not a positive integer', () => {
    expect(() => withAuditLog({ sink: 'local', maxPendingChars: 0 })).toThrow(/maxPendingChars/);
  });
});
