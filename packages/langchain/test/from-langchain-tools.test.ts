import { ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { createDispatcher, createToolRegistry } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromLangChainTools } from '../src/index.js';

const weather = tool(async ({ city }) => `21 °C in ${city}`, {
  name: 'weather',
  description: 'Current temperature in a city',
  schema: z.object({ city: z.string().min(1) }),
});

describe('fromLangChainTools', () => {
  it('keeps the name, description, schema and function of a zod-typed LangChain tool', async () => {
    const registry = createToolRegistry(
      fromLangChainTools([weather], { safety: { weather: { readOnly: true } } }),
    );
    expect(registry.get('weather')).toMatchObject({
      description: 'Current temperature in a city',
      safety: { readOnly: true },
    });
    const dispatcher = createDispatcher({ registry });
    const ok = await dispatcher.dispatch({
      id: 'a',
      name: 'weather',
      arguments: '{"city":"Oslo"}',
    });
    expect(ok).toMatchObject({ ok: true, observation: '21 °C in Oslo' });
    // Invoked with the tool call, as ToolNode invokes it: the tool's own ToolMessage is the result.
    expect(ok.result).toBeInstanceOf(ToolMessage);
    expect(ok.result).toMatchObject({
      tool_call_id: 'a',
      name: 'weather',
      content: '21 °C in Oslo',
    });
  });

  it("keeps a content_and_artifact tool's artifact beside the content the model reads", async () => {
    const search = tool(async ({ query }) => [`2 hits for ${query}`, { ids: [7, 9] }], {
      name: 'search',
      description: 'Search',
      schema: z.object({ query: z.string() }),
      responseFormat: 'content_and_artifact',
    });
    const dispatcher = createDispatcher({
      registry: createToolRegistry(fromLangChainTools([search])),
    });
    const found = await dispatcher.dispatch({ id: 's', name: 'search', arguments: { query: 'q' } });
    expect(found).toMatchObject({ ok: true, observation: '2 hits for q' });
    expect((found.result as ToolMessage).artifact).toEqual({ ids: [7, 9] });
  });

  it("reports a tool's own error message as a failed call", async () => {
    const failing = tool(
      async (_input, config) =>
        new ToolMessage({
          content: 'quota spent',
          status: 'error',
          tool_call_id: config.toolCall!.id!,
        }),
      { name: 'failing', description: 'Fails', schema: z.object({}) },
    );
    const dispatcher = createDispatcher({
      registry: createToolRegistry(fromLangChainTools([failing])),
    });
    const failed = await dispatcher.dispatch({ id: 'f', name: 'failing', arguments: {} });
    expect(failed).toMatchObject({ ok: false, status: 'error', errorCategory: 'tool_error' });
    expect(failed.observation).toContain('quota spent');
  });

  it("refuses what the converted schema refuses, with Switchyard's repair message", async () => {
    const dispatcher = createDispatcher({
      registry: createToolRegistry(fromLangChainTools([weather])),
    });
    const refused = await dispatcher.dispatch({
      id: 'b',
      name: 'weather',
      arguments: '{"city":""}',
    });
    expect(refused.status).toBe('schema_violation');
    expect(refused.observation).toContain('city');
  });
});
