import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../src/errors.js';
import {
  composeToolCallers,
  createDispatcher,
  createToolRegistry,
  defineTool,
  withAuditLog,
} from '../../../src/index.js';
import {
  type ChainedReceipt,
  LocalReceiptLog,
  RECEIPT_SCHEMA_VERSION,
  verifyReceipts,
} from '../../../src/middleware/receipts/index.js';
import { tempDir } from '../../support/temp-dir.js';

const FIXTURE = fileURLToPath(
  new URL('../../fixtures/receipts/governance-stack-v1.jsonl', import.meta.url),
);

/** Returns its arguments: a result whose object has keys RFC 8785 and version 1 order apart. */
const echo = defineTool({
  name: 'echo',
  description: 'Returns its arguments.',
  inputSchema: { type: 'object' },
  handler: (args: Record<string, unknown>) => args,
});

const ARGUMENTS = '{"9":"nine","10":"ten","":0,"b":{"2":[{"1":1,"0":0}]}}';
/** The texts an outside verifier hashes, written by hand: UTF-16 order, and index keys first. */
const RFC_8785_TEXT = '{"":0,"10":"ten","9":"nine","b":{"2":[{"0":0,"1":1}]}}';
const VERSION_1_TEXT = '{"9":"nine","10":"ten","":0,"b":{"2":[{"0":0,"1":1}]}}';
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

async function callEcho(directory: string): Promise<ChainedReceipt> {
  const audit = withAuditLog({ sink: 'local', directory });
  const dispatcher = createDispatcher({
    registry: createToolRegistry([echo]),
    caller: composeToolCallers([audit]),
  });
  const result = await dispatcher.dispatch(
    { id: 'e1', name: 'echo', arguments: ARGUMENTS },
    { sessionId: 'fixture' },
  );
  await audit.close();
  expect(result.audit?.layers ?? []).not.toContainEqual(
    expect.objectContaining({ status: 'sink_error' }),
  );
  const lines = readFileSync(join(directory, 'fixture.jsonl'), 'utf8').trimEnd().split('\n');
  return JSON.parse(lines.at(-1)!) as ChainedReceipt;
}

describe('receipt schema versions', () => {
  it('starts a new log at version 2, hashing arguments and results as RFC 8785 writes them', async () => {
    const directory = tempDir('switchyard-receipt-v2-');
    const receipt = await callEcho(directory);
    expect(receipt.schema_version).toBe(2);
    expect(receipt.args_hash).toBe(sha256(RFC_8785_TEXT));
    expect(receipt.result_hash).toBe(sha256(RFC_8785_TEXT));
    expect(verifyReceipts(join(directory, 'fixture.jsonl'))).toMatchObject({
      ok: true,
      verifiedLines: 1,
      schemaVersions: [2],
    });
  });

  it('continues a version 1 log in version 1, so every receipt in it hashes the same way', async () => {
    const directory = tempDir('switchyard-receipt-v1-');
    copyFileSync(FIXTURE, join(directory, 'fixture.jsonl'));
    const receipt = await callEcho(directory);
    expect(receipt.schema_version).toBe(1);
    expect(receipt.args_hash).toBe(sha256(VERSION_1_TEXT));
    expect(receipt.result_hash).toBe(sha256(VERSION_1_TEXT));
    expect(verifyReceipts(join(directory, 'fixture.jsonl'))).toMatchObject({
      ok: true,
      verifiedLines: 10,
      schemaVersions: [1],
    });
  });

  it('refuses to continue a log started with a version it cannot write, and says so', async () => {
    const directory = tempDir('switchyard-receipt-v3-');
    const path = join(directory, 'fixture.jsonl');
    const line = `{"schema_version":3,"prev_hash":"${'0'.repeat(64)}","hash":"${'a'.repeat(64)}"}\n`;
    writeFileSync(path, line);
    const audit = withAuditLog({ sink: 'local', directory });
    const dispatcher = createDispatcher({
      registry: createToolRegistry([echo]),
      caller: composeToolCallers([audit]),
    });
    const result = await dispatcher.dispatch(
      { id: 'e1', name: 'echo', arguments: '{}' },
      { sessionId: 'fixture' },
    );
    expect(result.ok).toBe(true);
    expect(result.audit?.layers).toContainEqual({
      name: 'with_audit_log',
      status: 'sink_error',
      error: expect.stringMatching(/started with receipt schema version 3/),
    });
    await expect(audit.close()).rejects.toThrow(/cannot continue the log/);
    expect(readFileSync(path, 'utf8')).toBe(line);
  });

  it('keeps a log to the version of its first receipt', async () => {
    const path = join(tempDir('switchyard-receipt-mixed-'), 'mixed.jsonl');
    const log = new LocalReceiptLog(path);
    expect(log.schemaVersion).toBe(RECEIPT_SCHEMA_VERSION);
    const first = JSON.parse(readFileSync(FIXTURE, 'utf8').split('\n')[0]!) as ChainedReceipt;
    const { prev_hash: _prev, hash: _hash, ...receipt } = first;
    await log.append(receipt);
    expect(log.schemaVersion).toBe(1);
    await expect(log.append({ ...receipt, schema_version: 2 })).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    await log.close();
    expect(verifyReceipts(path)).toMatchObject({ ok: true, verifiedLines: 1, schemaVersions: [1] });
    const reopened = new LocalReceiptLog(path);
    expect(reopened.schemaVersion).toBe(1);
    await reopened.close();
  });

  it('names the versions of a log it verifies', () => {
    expect(verifyReceipts(FIXTURE)).toMatchObject({ ok: true, schemaVersions: [1] });
  });
});
