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
    expect(ok).toMatchObject({ ok: true, result: '21 °C in Oslo' });
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
