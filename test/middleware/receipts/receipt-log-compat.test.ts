import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  createDispatcher,
  createToolRegistry,
  governanceStack,
  toolsUseMiddleware,
} from '../../../src/index.js';
import { type ChainedReceipt, verifyReceipts } from '../../../src/middleware/receipts/index.js';
import { tempDir } from '../../support/temp-dir.js';
import { addTool } from '../../support/tools.js';

/**
 * A log written by the 10-layer stack before receipts were encoded by hand (commit fedabcc): nine
 * calls that succeed, hit the idempotency cache, are denied, lack a reason, name an unknown tool,
 * break the schema (with a redacted `token`), carry unreadable arguments, control characters and
 * a quoted call id, and hit the rate limit.
 */
const FIXTURE = fileURLToPath(
  new URL('../../fixtures/receipts/governance-stack-v1.jsonl', import.meta.url),
);

function lines(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n').slice(0, -1);
}

describe('receipt logs across versions', () => {
  it('verifies a log written by earlier code', () => {
    expect(verifyReceipts(FIXTURE)).toMatchObject({ ok: true, verifiedLines: 9 });
  });

  it('continues an earlier log: new lines link to its last hash and the whole file verifies', async () => {
    const directory = tempDir('switchyard-compat-');
    const path = join(directory, 'fixture.jsonl');
    copyFileSync(FIXTURE, path);
    const lastHash = (JSON.parse(lines(FIXTURE).at(-1)!) as ChainedReceipt).hash;
    const stack = governanceStack({
      audit: { sink: 'local', directory, redact: ['token'] },
      telemetry: 'noop',
      scope: { stage: 'fixture', allowedTools: ['add'] },
      reason: true,
      consent: { prompt: (call) => call.toolArgs.a !== 13, options: { when: () => true } },
      redaction: () => undefined,
      idempotency: { key: (call) => call.callId },
      timeout: { maxMs: 10_000 },
      rateLimit: { maxCalls: 100 },
    });
    const registry = toolsUseMiddleware(createToolRegistry([addTool]), stack.schemaTransform!);
    const dispatcher = createDispatcher({ registry, caller: stack.caller });
    const proposed = [
      ['n1', '{"a":1,"b":2,"reason":"sum"}'],
      ['n2 "quoted" \\ ✓', '{"b":2,"a":1,"reason":"ünïcödé \\u2028 \\ud83d\\ude00 \\ud800"}'],
      ['n3', '{"a":13,"b":2,"reason":"denied"}'],
      ['n4', '{"a":1,"b":"two","reason":"\\u0000\\t","token":"secret"}'],
      ['n5', '{not json'],
    ];
    let emitOrder = 0;
    for (const [id, args] of proposed) {
      await dispatcher.dispatch(
        { id: id!, name: 'add', arguments: args! },
        { sessionId: 'fixture', emitOrder: emitOrder++ },
      );
    }
    await stack.close();

    expect(verifyReceipts(path)).toMatchObject({ ok: true, verifiedLines: 14 });
    const written = lines(path);
    expect(written.slice(0, 9)).toEqual(lines(FIXTURE));
    const added = written.slice(9).map((line) => JSON.parse(line) as ChainedReceipt);
    expect(added[0]!.prev_hash).toBe(lastHash);
    expect(added.map((receipt) => receipt.tool_call_id)).toEqual(proposed.map(([id]) => id));
    expect(added.map((receipt) => receipt.status)).toEqual([
      'ok',
      'ok',
      'consent_denied',
      'schema_violation',
      'schema_violation',
    ]);
    // Each line is exactly the JSON text of what it records (what `verifyReceipts` re-hashes).
    for (const line of written.slice(9)) expect(JSON.stringify(JSON.parse(line))).toBe(line);
  });
});
