import { describe, expect, it } from 'vitest';
import { agentLoop, createToolRegistry, withAuditLog } from '../../src/index.js';
import type { ToolCallReceipt } from '../../src/middleware/receipts/index.js';
import type { ScriptedTurn } from '../../src/providers/scripted/index.js';
import { createScriptedModel, recordingTool } from '../../src/testing/index.js';
import { addTool } from '../support/tools.js';

/** `add` with its closed schema, counting the calls that reach it. */
const countedAdd = () => recordingTool({ name: 'add', inputSchema: addTool.inputSchema });

/** A turn proposing an ok call, an unknown tool, malformed JSON and a schema violation. */
const MIXED_TURN: ScriptedTurn = {
  toolCalls: [
    { id: 'ok', name: 'add', arguments: { a: 1, b: 2 } },
    { id: 'who', name: 'multiply', arguments: { a: 1 } },
    { id: 'bad', name: 'add', arguments: '{"a":1,' },
    { id: 'type', name: 'add', arguments: { a: 'one', b: 2 } },
  ],
};

function setup(toolCalling: 'native' | 'text' = 'native') {
  const add = countedAdd();
  const receipts: ToolCallReceipt[] = [];
  const model = createScriptedModel({ toolCalling, turns: [MIXED_TURN, { text: 'Done.' }] });
  const run = agentLoop({
    task: 't',
    model,
    tools: createToolRegistry([add.tool]),
    toolCaller: withAuditLog((receipt) => {
      receipts.push(receipt);
    }),
  });
  return { add, receipts, run };
}

describe('refused calls in an agent run', () => {
  it('give every whole call the model proposed one result and one receipt, refused ones included', async () => {
    const { add, receipts, run } = setup();
    const { results, turns, transcript } = await run;

    expect(results.map((result) => [result.toolCallId, result.status])).toEqual([
      ['ok', 'ok'],
      ['who', 'tool_not_found'],
      ['bad', 'schema_violation'],
      ['type', 'schema_violation'],
    ]);
    expect(receipts.map((receipt) => [receipt.tool_call_id, receipt.status])).toEqual([
      ['ok', 'ok'],
      ['who', 'schema_violation'],
      ['bad', 'schema_violation'],
      ['type', 'schema_violation'],
    ]);
    expect(add.callCount).toBe(1);
    expect(turns[0]?.retracted).toEqual([]);
    // The model is answered once per call, in the order it made them, each with its repair text.
    const answers = transcript[2];
    expect(answers?.role).toBe('tool');
    if (answers?.role !== 'tool') return;
    expect(answers.results.map((answer) => [answer.toolCallId, answer.isError])).toEqual([
      ['ok', false],
      ['who', true],
      ['bad', true],
      ['type', true],
    ]);
    expect(answers.results[1]?.content).toContain('add');
    expect(answers.results[2]?.content).toMatch(/JSON/);
  });

  it('still retracts a call the response cut off: it was never whole, so it is no call', async () => {
    const add = countedAdd();
    const receipts: ToolCallReceipt[] = [];
    const model = createScriptedModel({
      turns: [
        {
          toolCalls: [
            { id: 'ok', name: 'add', arguments: { a: 1, b: 2 } },
            { id: 'cut', name: 'add', arguments: { a: 1, b: 2 } },
          ],
          finish: 'length',
        },
        { text: 'Done.' },
      ],
    });
    const run = await agentLoop({
      task: 't',
      model,
      tools: createToolRegistry([add.tool]),
      toolCaller: withAuditLog((receipt) => {
        receipts.push(receipt);
      }),
    });
    expect(run.results.map((result) => result.toolCallId)).toEqual(['ok']);
    expect(receipts.map((receipt) => receipt.tool_call_id)).toEqual(['ok']);
    expect(
      run.turns[0]?.retracted.map((candidate) => [candidate.toolCallId, candidate.reason]),
    ).toEqual([['cut', 'cut_off']]);
  });

  it('keeps the text detector’s retraction of text that was never a call', async () => {
    const { add, receipts, run } = setup('text');
    const { results, turns } = await run;
    // In text mode the malformed JSON is a call body that does not parse; an unknown name in a
    // <tool_call> block is retracted by the text protocol's own rules.
    expect(results.map((result) => [result.toolCallId, result.status])).toEqual(
      receipts.map((receipt) => [
        receipt.tool_call_id,
        receipt.status === 'ok' ? 'ok' : 'schema_violation',
      ]),
    );
    expect(turns[0]?.retracted.map((candidate) => candidate.reason)).toEqual([
      'unknown_tool',
      'invalid_syntax',
    ]);
    expect(add.callCount).toBe(1);
  });
});
