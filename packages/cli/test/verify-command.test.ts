import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { LocalReceiptLog, type ToolCallReceipt } from 'switchyard/receipts';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';
import { EXIT } from '../src/exit-codes.js';
import { runVerify, verifyCommand } from '../src/verify-command.js';
import { captureIo } from './cli-io.js';

const receipt: ToolCallReceipt = {
  schema_version: 1,
  session_id: 's',
  run_id: null,
  tool_call_id: 'c',
  tool_name: 'add',
  iteration: 0,
  turn_index: null,
  emit_order: 0,
  reason: null,
  kind: 'read',
  executor: 'inline',
  status: 'ok',
  error_category: null,
  duration_ms: 1,
  args_hash: 'a'.repeat(64),
  result_hash: null,
  audit: {},
  emitted_at: '2026-11-22T00:00:00.000Z',
  model: null,
  provider: null,
};

async function verify(path: string) {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk) => {
    text += chunk;
  });
  const code = runVerify(path, out);
  return { code, text };
}

describe('switchyard verify', () => {
  it('exits 0 for an intact log and 1 naming the first broken line', async () => {
    const path = join(tempDir('switchyard-verify-'), 's.jsonl');
    const log = new LocalReceiptLog(path);
    for (const id of ['a', 'b', 'c']) await log.append({ ...receipt, tool_call_id: id });
    await log.close();
    expect(await verify(path)).toEqual({
      code: 0,
      text: `${path}: 3 receipts (receipt schema version 1), chain intact\n`,
    });
    writeFileSync(
      path,
      readFileSync(path, 'utf8').replace('"tool_call_id":"b"', '"tool_call_id":"x"'),
    );
    const broken = await verify(path);
    expect(broken.code).toBe(1);
    expect(broken.text).toContain('broken at line 2');
    expect(broken.text).toContain('1 receipt before it intact');
  });
});

describe('switchyard verify: the command', () => {
  it('prints its help, refuses extra arguments, and exits 3 for a log it cannot read', async () => {
    const help = captureIo();
    expect(await verifyCommand(['--help'], help.io)).toBe(EXIT.ok);
    expect(help.out()).toMatch(/^Usage: switchyard verify <receipts.jsonl>/);
    await expect(verifyCommand(['a.jsonl', 'b.jsonl'], captureIo().io)).rejects.toMatchObject({
      code: 'SY_ERR_CLI_USAGE',
    });
    const missing = join(tempDir('switchyard-verify-'), 'none.jsonl');
    await expect(verifyCommand([missing], captureIo().io)).rejects.toMatchObject({
      code: 'SY_ERR_CLI_INPUT',
    });
  });
});
