import { jsonSchema, tool } from 'ai';
import { createDispatcher, createToolRegistry } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromAiSdkTools } from '../src/index.js';

const weather = tool({
  description: 'Current temperature in a city',
  inputSchema: z.object({ city: z.string().min(1), unit: z.enum(['c', 'f']).optional() }),
  execute: async ({ city, unit }) => ({ city, temperature: unit === 'f' ? 70 : 21 }),
});

async function* countdown() {
  yield 'three';
  yield 'two';
  yield 'lift-off';
}
const launch = tool({
  description: 'A streaming tool',
  inputSchema: jsonSchema<Record<string, never>>({ type: 'object', properties: {} }),
  execute: countdown,
});
const clientSide = tool({
  description: 'No execute: the client answers it',
  inputSchema: z.object({}),
});

describe('fromAiSdkTools', () => {
  it('keeps the schema, the description and the handler of a zod-typed AI SDK tool', async () => {
    const tools = await fromAiSdkTools(
      { weather, launch, clientSide },
      {
        safety: { weather: { readOnly: true } },
      },
    );
    expect(tools.map((converted) => converted.name)).toEqual(['weather', 'launch']);
    const registry = createToolRegistry(tools);
    expect(registry.get('weather')?.description).toBe('Current temperature in a city');
    expect(registry.get('weather')?.safety.readOnly).toBe(true);
    expect(registry.get('launch')?.safety.readOnly).toBe(false);

    const dispatcher = createDispatcher({ registry });
    const ok = await dispatcher.dispatch({
      id: 'a',
      name: 'weather',
      arguments: '{"city":"Oslo","unit":"f"}',
    });
    expect(ok).toMatchObject({ ok: true, result: { city: 'Oslo', temperature: 70 } });
  });

  it("validates against the converted schema, fail closed, with Switchyard's repair message", async () => {
    const dispatcher = createDispatcher({
      registry: createToolRegistry(await fromAiSdkTools({ weather })),
    });
    const refused = await dispatcher.dispatch({
      id: 'b',
      name: 'weather',
      arguments: '{"city":"","unit":"k"}',
    });
    expect(refused.status).toBe('schema_violation');
    expect(refused.observation).toContain('unit');
    expect(refused.observation).toContain('city');
  });

  it('returns the last output of a streaming tool', async () => {
    const dispatcher = createDispatcher({
      registry: createToolRegistry(await fromAiSdkTools({ launch })),
    });
    const result = await dispatcher.dispatch({ id: 'c', name: 'launch', arguments: '{}' });
    expect(result).toMatchObject({ ok: true, result: 'lift-off' });
  });
});
