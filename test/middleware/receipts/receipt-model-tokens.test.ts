import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentLoop, createToolRegistry, withAuditLog } from '../../../src/index.js';
import { type ChainedReceipt, verifyReceipts } from '../../../src/middleware/receipts/index.js';
import { createScriptedModel } from '../../../src/testing/index.js';
import { lookupTool as lookup, payTool as pay } from '../../support/eager-and-held-tools.js';
import { tempDir } from '../../support/temp-dir.js';

describe('receipts: model tokens', () => {
  it('record a held call’s share of its turn’s tokens in usage, and the log still verifies', async () => {
    const directory = tempDir('switchyard-receipt-tokens-');
    const audit = withAuditLog({ sink: 'local', directory });
    const model = createScriptedModel({
      turns: [
        {
          toolCalls: [
            { id: 'l0', name: 'lookup', arguments: {} },
            { id: 'p1', name: 'pay', arguments: { n: 1 } },
          ],
          usage: { inputTokens: 41, outputTokens: 9 },
        },
        { text: 'done' },
      ],
    });
    await agentLoop({
      task: 'pay',
      model,
      tools: createToolRegistry([lookup, pay]),
      toolCaller: audit,
      sessionId: 'tokens',
    });
    await audit.close();
    const path = join(directory, 'tokens.jsonl');
    expect(verifyReceipts(path)).toMatchObject({ ok: true, verifiedLines: 2 });
    const receipts = readFileSync(path, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as ChainedReceipt);
    const byId = new Map(receipts.map((receipt) => [receipt.tool_call_id, receipt]));
    expect(byId.get('l0')?.usage).toBeUndefined();
    expect(byId.get('p1')?.usage).toEqual({
      tool_cost_usd: 0.5,
      model_input_tokens: 20,
      model_output_tokens: 4,
    });
  });
});
