// The "ToolNode with Commands" and "ToolNode should raise GraphInterrupt" cases of LangGraph's
// `prebuilt.test.ts`, run against `switchyardToolNode` (`toolNodeOf([...])` where the original
// builds `new ToolNode([...])`). Source and license: support/prebuilt-suite.ts.
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { Command, GraphInterrupt, Send } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v3';
import { toolNodeOf } from './support/prebuilt-suite.js';

/** A tool named `name` that hands off to Bob, its update in `shape` (`dict`: `{ messages }`). */
function transferTool(name: string, shape: 'dict' | 'array') {
  return tool(
    async (_, config) => {
      const message = new ToolMessage({
        content: 'Transferred to Bob',
        tool_call_id: config.toolCall.id,
        name,
      });
      return new Command({
        update: shape === 'dict' ? { messages: [message] } : ([message] as never),
        goto: 'bob',
        graph: Command.PARENT,
      });
    },
    { name, description: 'Transfer to Bob', schema: z.object({}) },
  );
}

function handoff(name: string, id: string, shape: 'dict' | 'array') {
  const message = new ToolMessage({ content: 'Transferred to Bob', tool_call_id: id, name });
  return new Command({
    update: shape === 'dict' ? { messages: [message] } : ([message] as never),
    goto: 'bob',
    graph: Command.PARENT,
  });
}

const add = tool(({ a, b }) => `${a + b}`, {
  name: 'add',
  description: 'Add two numbers',
  schema: z.object({ a: z.number(), b: z.number() }),
});

describe('ToolNode with Commands', () => {
  it('can handle tools returning commands with dict input', async () => {
    const transferToBob = transferTool('transfer_to_bob', 'dict');
    const asyncTransferToBob = transferTool('async_transfer_to_bob', 'dict');

    const result = await toolNodeOf([add, transferToBob]).invoke({
      messages: [
        new AIMessage({
          content: '',
          tool_calls: [
            { args: { a: 1, b: 2 }, id: '1', name: 'add', type: 'tool_call' },
            { args: {}, id: '2', name: 'transfer_to_bob', type: 'tool_call' },
          ],
        }),
      ],
    });
    expect(result).toMatchObject([
      { messages: [expect.objectContaining({ content: '3', tool_call_id: '1', name: 'add' })] },
      new Command({
        update: {
          messages: [
            expect.objectContaining({
              content: 'Transferred to Bob',
              tool_call_id: '2',
              name: 'transfer_to_bob',
            }),
          ],
        },
        goto: 'bob',
        graph: Command.PARENT,
      }),
    ]);

    for (const single of [transferToBob, asyncTransferToBob]) {
      const singleToolResult = await toolNodeOf([single]).invoke({
        messages: [
          new AIMessage({ content: '', tool_calls: [{ args: {}, id: '1', name: single.name }] }),
        ],
      });
      expect(singleToolResult).toMatchObject([handoff(single.name, '1', 'dict')]);
    }

    const multipleCommandsResult = await toolNodeOf([transferToBob, asyncTransferToBob]).invoke({
      messages: [
        new AIMessage({
          content: '',
          tool_calls: [
            { args: {}, id: '1', name: 'transfer_to_bob' },
            { args: {}, id: '2', name: 'async_transfer_to_bob' },
          ],
        }),
      ],
    });
    expect(multipleCommandsResult).toMatchObject([
      handoff('transfer_to_bob', '1', 'dict'),
      handoff('async_transfer_to_bob', '2', 'dict'),
    ]);
  });

  it('can handle tools returning commands with array input', async () => {
    const transferToBob = transferTool('transfer_to_bob', 'array');
    const asyncTransferToBob = transferTool('async_transfer_to_bob', 'array');

    const result = await toolNodeOf([add, transferToBob]).invoke([
      new AIMessage({
        content: '',
        tool_calls: [
          { args: { a: 1, b: 2 }, id: '1', name: 'add' },
          { args: {}, id: '2', name: 'transfer_to_bob' },
        ],
      }),
    ]);
    expect(result).toMatchObject([
      [expect.objectContaining({ content: '3', tool_call_id: '1', name: 'add' })],
      new Command({
        update: [
          expect.objectContaining({
            content: 'Transferred to Bob',
            tool_call_id: '2',
            name: 'transfer_to_bob',
          }),
        ] as never,
        goto: 'bob',
        graph: Command.PARENT,
      }),
    ]);

    for (const single of [transferToBob, asyncTransferToBob]) {
      const singleResult = await toolNodeOf([single]).invoke([
        new AIMessage({ content: '', tool_calls: [{ args: {}, id: '1', name: single.name }] }),
      ]);
      expect(singleResult).toMatchObject([handoff(single.name, '1', 'array')]);
    }

    const multipleCommandsResult = await toolNodeOf([transferToBob, asyncTransferToBob]).invoke([
      new AIMessage({
        content: '',
        tool_calls: [
          { args: {}, id: '1', name: 'transfer_to_bob' },
          { args: {}, id: '2', name: 'async_transfer_to_bob' },
        ],
      }),
    ]);
    expect(multipleCommandsResult).toMatchObject([
      handoff('transfer_to_bob', '1', 'array'),
      handoff('async_transfer_to_bob', '2', 'array'),
    ]);
  });

  it('should handle parent commands with Send', async () => {
    const transferTo = (person: string) =>
      tool(
        async (_, config) =>
          new Command({
            goto: [
              new Send(person.toLowerCase(), {
                messages: [
                  new ToolMessage({
                    content: `Transferred to ${person}`,
                    name: `transfer_to_${person.toLowerCase()}`,
                    tool_call_id: config.toolCall.id,
                  }),
                ],
              }),
            ],
            graph: Command.PARENT,
          }),
        {
          name: `transfer_to_${person.toLowerCase()}`,
          description: `Transfer to ${person}`,
          schema: z.object({}),
        },
      );
    const result = await toolNodeOf([transferTo('Alice'), transferTo('Bob')]).invoke([
      new AIMessage({
        content: '',
        tool_calls: [
          { args: {}, id: '1', name: 'transfer_to_alice', type: 'tool_call' },
          { args: {}, id: '2', name: 'transfer_to_bob', type: 'tool_call' },
        ],
      }),
    ]);
    const sent = (person: string, id: string) =>
      new Send(person.toLowerCase(), {
        messages: [
          new ToolMessage({
            content: `Transferred to ${person}`,
            name: `transfer_to_${person.toLowerCase()}`,
            tool_call_id: id,
          }),
        ],
      });
    expect(result).toMatchObject([
      new Command({ goto: [sent('Alice', '1'), sent('Bob', '2')], graph: Command.PARENT }),
    ]);
  });
});

describe('ToolNode should raise GraphInterrupt', () => {
  it('should raise GraphInterrupt', async () => {
    const toolWithInterrupt = tool(
      async (_) => {
        throw new GraphInterrupt();
      },
      {
        name: 'tool_with_interrupt',
        description: 'A tool that returns an interrupt',
        schema: z.object({}),
      },
    );
    await expect(
      toolNodeOf([toolWithInterrupt]).invoke({
        messages: [
          new AIMessage({
            content: '',
            tool_calls: [{ name: 'tool_with_interrupt', args: {}, id: 'testid' }],
          }),
        ],
      }),
    ).rejects.toThrow(GraphInterrupt);
  });
});
