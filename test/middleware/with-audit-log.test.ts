import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  CancelledError,
  composeToolCallers,
  createDispatcher,
  createToolRegistry,
  defineTool,
  shortCircuitResult,
  type ToolCallEnvelope,
  type ToolCaller,
  withAuditLog,
} from '../../src/index.js';
import {
  type ChainedReceipt,
  GENESIS_HASH,
  type ToolCallReceipt,
  verifyReceipts,
} from '../../src/middleware/receipts/index.js';
import { canonicalHash } from '../../src/tools/index.js';
import { tempDir } from '../support/temp-dir.js';
import { addTool } from '../support/tools.js';

const login = defineTool({
  name: 'login',
  description: 'd',
  inputSchema: {
    type: 'object',
    properties: {
      user: { type: 'string' },
      password: { type: 'string' },
      nested: { type: 'object' },
    },
  },
  safety: { sideEffectLevel: 'network', redact: ['password'] },
  handler: () => ({ session: 'abc' }),
});
const registry = createToolRegistry([addTool, login]);
const directory = () => tempDir('switchyard-receipts-');

describe('withAuditLog', () => {
  it('refuses an unknown sink at construction', () => {
    expect(() => withAuditLog('s3' as never)).toThrow(
      /sink must be a function or one of local\/cloud\/both/,
    );
  });

  it('hands one typed receipt per call to a function sink', async () => {
    const receipts: ToolCallReceipt[] = [];
    const audit = withAuditLog({
      sink: (receipt) => void receipts.push(receipt),
      redact: ['token'],
      now: () => 0,
      wallClock: () => Date.UTC(2026, 10, 22),
    });
    const summary: ToolCaller = async (call, next) => ({
      ...(await next(call)),
      audit: { summary: 'adding up' },
    });
    const dispatcher = createDispatcher({ registry, caller: composeToolCallers([audit, summary]) });
    await dispatcher.dispatch(
      { id: 'c1', name: 'add', arguments: '{"a":1,"b":2}' },
      { sessionId: 's', runId: 'r', iteration: 2, emitOrder: 3, model: 'm', provider: 'p' },
    );
    expect(receipts).toEqual([
      {
        schema_version: 2,
        session_id: 's',
        run_id: 'r',
        tool_call_id: 'c1',
        tool_name: 'add',
        iteration: 2,
        turn_index: 1,
        emit_order: 3,
        reason: 'adding up',
        kind: 'read',
        executor: 'inline',
        status: 'ok',
        error_category: null,
        duration_ms: 0,
        args_hash: canonicalHash({ a: 1, b: 2 }),
        result_hash: canonicalHash(3),
        audit: { summary: 'adding up' },
        emitted_at: '2026-11-22T00:00:00.000Z',
        model: 'm',
        provider: 'p',
      },
    ]);
  });

  it('hashes arguments without redacted keys, at any depth, from options and the tool', async () => {
    const receipts: ToolCallReceipt[] = [];
    const dispatcher = createDispatcher({
      registry,
      caller: withAuditLog({ sink: (receipt) => void receipts.push(receipt), redact: ['token'] }),
    });
    await dispatcher.dispatch({
      id: 'l',
      name: 'login',
      arguments: { user: 'ada', password: 'x', nested: { token: 't', keep: 1 } },
    });
    expect(receipts[0]?.args_hash).toBe(canonicalHash({ user: 'ada', nested: { keep: 1 } }));
  });

  it('records what inner layers short-circuited and what the executor refused', async () => {
    const receipts: ToolCallReceipt[] = [];
    const deny: ToolCaller = async (call, next) =>
      call.toolName === 'login'
        ? shortCircuitResult(call, {
            status: 'error',
            errorCategory: 'consent_denied',
            error: 'no',
          })
        : next(call);
    const dispatcher = createDispatcher({
      registry,
      caller: composeToolCallers([withAuditLog((receipt) => void receipts.push(receipt)), deny]),
    });
    await dispatcher.dispatch({ id: 'd', name: 'login', arguments: {} });
    await dispatcher.dispatch({ id: 'v', name: 'add', arguments: '{"a":1' });
    await dispatcher.dispatch({ id: 'u', name: 'nope', arguments: '{}' });
    expect(
      receipts.map((receipt) => [receipt.tool_call_id, receipt.status, receipt.error_category]),
    ).toEqual([
      ['d', 'consent_denied', 'consent_denied'],
      ['v', 'schema_violation', 'schema_violation'],
      ['u', 'schema_violation', 'tool_not_found'],
    ]);
  });

  it('records a cancelled call and lets the cancellation propagate', async () => {
    const receipts: ToolCallReceipt[] = [];
    const cancel: ToolCaller = () => Promise.reject(new CancelledError('stop'));
    const dispatcher = createDispatcher({
      registry,
      caller: composeToolCallers([withAuditLog((receipt) => void receipts.push(receipt)), cancel]),
    });
    const result = await dispatcher.dispatch({ id: 'x', name: 'add', arguments: '{"a":1,"b":2}' });
    expect(result.status).toBe('cancelled');
    expect(receipts.map((receipt) => receipt.status)).toEqual(['cancelled']);
  });

  it('never loses the result when the sink fails, and records the failure', async () => {
    const dispatcher = createDispatcher({
      registry,
      caller: withAuditLog(() => {
        throw new Error('disk full');
      }),
    });
    const events: unknown[] = [];
    dispatcher.events$.subscribe(
      (event) => event.type === 'tool_call_audit' && events.push(event.audit),
    );
    const result = await dispatcher.dispatch({ id: 'f', name: 'add', arguments: '{"a":1,"b":2}' });
    expect(result).toMatchObject({ ok: true, result: 3 });
    expect(result.audit?.layers).toEqual([
      { name: 'with_audit_log', status: 'sink_error', error: 'disk full' },
    ]);
    expect(events).toHaveLength(1);
  });

  it('mirrors the receipt on the audit event with the cloud sink', async () => {
    const dispatcher = createDispatcher({ registry, caller: withAuditLog('cloud') });
    const audits: Record<string, unknown>[] = [];
    dispatcher.events$.subscribe(
      (event) => event.type === 'tool_call_audit' && audits.push(event.audit),
    );
    await dispatcher.dispatch({ id: 'c', name: 'add', arguments: '{"a":1,"b":2}' });
    expect(audits[0]?.receipt).toMatchObject({ tool_call_id: 'c', status: 'ok' });
  });
});

describe('receipts of cancelled calls', () => {
  it('put the cloud receipt of each cancelled call on its result, leaving a shared cancellation alone', async () => {
    const controller = new AbortController();
    const shared = new CancelledError('turn stopped');
    const waitForStop: ToolCaller = (call) =>
      new Promise((_, reject) => {
        call.signal?.addEventListener('abort', () => reject(shared), { once: true });
      });
    const dispatcher = createDispatcher({
      registry,
      caller: composeToolCallers([withAuditLog('cloud'), waitForStop]),
    });
    const turn = Promise.all(
      ['a', 'b'].map((id, emitOrder) =>
        dispatcher.dispatch(
          { id, name: 'add', arguments: '{"a":1,"b":2}' },
          { signal: controller.signal, emitOrder },
        ),
      ),
    );
    controller.abort();
    const results = await turn;

    expect(results.map((result) => [result.status, result.audit?.receipt])).toEqual([
      ['cancelled', expect.objectContaining({ tool_call_id: 'a', status: 'cancelled' })],
      ['cancelled', expect.objectContaining({ tool_call_id: 'b', status: 'cancelled' })],
    ]);
    expect(shared.audit).toBeUndefined();
  });

  it('keep what an outer layer sees a cancellation', async () => {
    const seen: unknown[] = [];
    const outer: ToolCaller = async (call, next) => {
      try {
        return await next(call);
      } catch (error) {
        seen.push(error);
        throw error;
      }
    };
    const dispatcher = createDispatcher({
      registry,
      caller: composeToolCallers([
        outer,
        withAuditLog('cloud'),
        () => Promise.reject(new CancelledError('stop')),
      ]),
    });

    const result = await dispatcher.dispatch({ id: 'x', name: 'add', arguments: '{"a":1,"b":2}' });

    expect(CancelledError.isInstance(seen[0])).toBe(true);
    expect(result.status).toBe('cancelled');
    expect(result.audit?.receipt).toMatchObject({ tool_call_id: 'x', status: 'cancelled' });
  });
});

describe('local receipt logs', () => {
  async function writeLog(count: number, dir = directory()) {
    const audit = withAuditLog({ sink: 'local', directory: dir });
    const dispatcher = createDispatcher({ registry, caller: audit });
    const results = await Promise.all(
      Array.from({ length: count }, (_, n) =>
        dispatcher.dispatch(
          { id: `c${n}`, name: 'add', arguments: { a: n, b: 1 } },
          { sessionId: 'team/alpha', emitOrder: n },
        ),
      ),
    );
    await audit.close();
    return { results, path: join(dir, 'team_alpha.jsonl'), dir };
  }

  it('appends a hash-chained line per call and puts the file URL on the audit', async () => {
    const { results, path } = await writeLog(200);
    const uri = results[0]?.audit?.receiptUri as string;
    expect(fileURLToPath(uri)).toBe(path);
    const lines = readFileSync(path, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as ChainedReceipt);
    expect(lines).toHaveLength(200);
    expect(lines[0]?.prev_hash).toBe(GENESIS_HASH);
    lines.slice(1).forEach((receipt, index) => {
      expect(receipt.prev_hash).toBe(lines[index]?.hash);
    });
    expect(verifyReceipts(path)).toMatchObject({
      ok: true,
      verifiedLines: 200,
      incompleteTail: false,
    });
  });

  it('continues the chain when a log is reopened', async () => {
    const { path, dir } = await writeLog(3);
    await writeLog(2, dir);
    expect(verifyReceipts(path)).toMatchObject({ ok: true, verifiedLines: 5 });
  });

  it('names the first broken line of an edited, deleted or reordered log', async () => {
    const { path } = await writeLog(6);
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    const variants: [string, string[], number, RegExp][] = [
      [
        'edited',
        lines.map((line, index) =>
          index === 2 ? line.replace('"status":"ok"', '"status":"error"') : line,
        ),
        3,
        /edited/,
      ],
      ['deleted', lines.filter((_, index) => index !== 3), 4, /deleted/],
      ['reordered', [lines[0]!, lines[2]!, lines[1]!, ...lines.slice(3)], 2, /reordered/],
    ];
    for (const [name, content, line, reason] of variants) {
      writeFileSync(path, `${content.join('\n')}\n`);
      const verification = verifyReceipts(path);
      expect(verification.ok, name).toBe(false);
      expect(verification.firstBroken?.line, name).toBe(line);
      expect(verification.firstBroken?.reason, name).toMatch(reason);
    }
  });

  it('verifies a log cut mid-line up to its last whole line', async () => {
    const { path } = await writeLog(4);
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text + text.split('\n')[0]!.slice(0, 40));
    expect(verifyReceipts(path)).toMatchObject({
      ok: true,
      verifiedLines: 4,
      incompleteTail: true,
    });
  });
});

describe('local receipt logs and the disk', () => {
  const call = (id: string) => ({ id, name: 'add', arguments: '{"a":1,"b":2}' });
  it('returns results before their receipts reach the file, and close() writes them', async () => {
    const dir = directory();
    const audit = withAuditLog({ sink: 'local', directory: dir });
    const dispatcher = createDispatcher({ registry, caller: audit });
    for (const id of ['a', 'b', 'c']) {
      expect((await dispatcher.dispatch(call(id), { sessionId: 's' })).ok).toBe(true);
    }
    await audit.close();
    expect(verifyReceipts(join(dir, 's.jsonl'))).toMatchObject({ ok: true, verifiedLines: 3 });
  });

  it('has every receipt recorded so far in the file after flush(), and keeps the log open', async () => {
    const dir = directory();
    const audit = withAuditLog({ sink: 'local', directory: dir });
    const dispatcher = createDispatcher({ registry, caller: audit });
    await dispatcher.dispatch(call('a'), { sessionId: 's' });
    await dispatcher.dispatch(call('b'), { sessionId: 's' });
    await audit.flush();
    expect(verifyReceipts(join(dir, 's.jsonl'))).toMatchObject({ ok: true, verifiedLines: 2 });
    await dispatcher.dispatch(call('c'), { sessionId: 's' });
    await audit.close();
    expect(verifyReceipts(join(dir, 's.jsonl'))).toMatchObject({ ok: true, verifiedLines: 3 });
  });

  it('returns each result once its receipt is written with waitForWrite', async () => {
    const dir = directory();
    const audit = withAuditLog({ sink: 'local', directory: dir, waitForWrite: true });
    const dispatcher = createDispatcher({ registry, caller: audit });
    await dispatcher.dispatch(call('a'), { sessionId: 's' });
    expect(verifyReceipts(join(dir, 's.jsonl'))).toMatchObject({ ok: true, verifiedLines: 1 });
    await audit.close();
  });

  it('refuses a waitForWrite that is not a boolean', () => {
    expect(() => withAuditLog({ sink: 'local', waitForWrite: 'yes' as never })).toThrow(
      /waitForWrite/,
    );
  });

  describe.skipIf(!existsSync('/dev/full'))('when a write fails (a log on /dev/full)', () => {
    function fullLog(waitForWrite: boolean) {
      const dir = directory();
      symlinkSync('/dev/full', join(dir, 'full.jsonl'));
      const audit = withAuditLog({ sink: 'local', directory: dir, waitForWrite });
      return { audit, dispatcher: createDispatcher({ registry, caller: audit }) };
    }

    it('keeps every result, records the failure on the calls after it, and close() rejects', async () => {
      const { audit, dispatcher } = fullLog(false);
      const first = await dispatcher.dispatch(call('a'), { sessionId: 'full' });
      await expect(audit.flush()).rejects.toMatchObject({ code: 'ENOSPC' });
      const second = await dispatcher.dispatch(call('b'), { sessionId: 'full' });
      expect(first).toMatchObject({ ok: true, result: 3 });
      expect(second).toMatchObject({ ok: true, result: 3 });
      expect(second.audit?.layers).toEqual([
        { name: 'with_audit_log', status: 'sink_error', error: expect.stringMatching(/ENOSPC/) },
      ]);
      await expect(audit.close()).rejects.toMatchObject({ code: 'ENOSPC' });
    });

    it('records the failure on the call itself with waitForWrite', async () => {
      const { audit, dispatcher } = fullLog(true);
      const result = await dispatcher.dispatch(call('a'), { sessionId: 'full' });
      expect(result).toMatchObject({ ok: true, result: 3 });
      expect(result.audit?.layers).toEqual([
        { name: 'with_audit_log', status: 'sink_error', error: expect.stringMatching(/ENOSPC/) },
      ]);
      await expect(audit.close()).rejects.toMatchObject({ code: 'ENOSPC' });
    });
  });
});

describe('the envelope seen by sinks', () => {
  it('is the call itself', async () => {
    const seen: ToolCallEnvelope[] = [];
    const dispatcher = createDispatcher({
      registry,
      caller: withAuditLog((_receipt, call) => void seen.push(call)),
    });
    await dispatcher.dispatch({ id: 'e', name: 'add', arguments: '{"a":1,"b":2}' });
    expect(seen[0]).toMatchObject({ callId: 'e', toolName: 'add' });
  });
});
