import { type HostedTool, tool } from '@openai/agents-core';
import { createDispatcher, createToolRegistry } from 'switchyard';
import { deferred } from 'switchyard/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromOpenAIAgentsTools } from '../src/index.js';
import { NO_PARAMETERS } from './agents-support.js';

const weather = tool({
  name: 'weather',
  description: 'Current temperature in a city',
  parameters: z.object({ city: z.string().min(1) }),
  execute: async ({ city }, runContext) =>
    `21 °C in ${city} for ${(runContext?.context as { user?: string } | undefined)?.user}`,
});

describe('fromOpenAIAgentsTools', () => {
  it('keeps the name, description, schema and function of a zod-typed Agents tool', async () => {
    const registry = createToolRegistry(
      fromOpenAIAgentsTools([weather], {
        safety: { weather: { readOnly: true } },
        context: { user: 'ada' },
      }),
    );
    expect(registry.get('weather')).toMatchObject({
      description: 'Current temperature in a city',
      safety: { readOnly: true },
    });
    const ok = await createDispatcher({ registry }).dispatch({
      id: 'a',
      name: 'weather',
      arguments: '{"city":"Oslo"}',
    });
    expect(ok).toMatchObject({ ok: true, result: '21 °C in Oslo for ada' });
  });

  it("refuses what the tool's schema refuses, with Switchyard's repair message", async () => {
    const dispatcher = createDispatcher({
      registry: createToolRegistry(fromOpenAIAgentsTools([weather])),
    });
    const refused = await dispatcher.dispatch({ id: 'b', name: 'weather', arguments: '{}' });
    expect(refused.status).toBe('schema_violation');
    expect(refused.observation).toContain('city');
  });

  it('hands the tool the call id and the abort signal, and skips tools that are not functions', async () => {
    const started = deferred();
    const seen: { callId?: string; aborted?: boolean }[] = [];
    const slow = tool({
      name: 'slow',
      description: 'Waits until aborted',
      parameters: NO_PARAMETERS,
      strict: false,
      errorFunction: null,
      execute: (_input, _context, details) =>
        new Promise((_, reject) => {
          started.resolve();
          details?.signal?.addEventListener('abort', () => {
            seen.push({ callId: details.toolCall?.callId, aborted: details.signal?.aborted });
            reject(new Error('aborted'));
          });
        }),
    });
    const converted = fromOpenAIAgentsTools([
      slow,
      { type: 'hosted_tool', name: 'web_search', providerData: {} } satisfies HostedTool,
    ]);
    expect(converted.map((each) => each.name)).toEqual(['slow']);
    const dispatcher = createDispatcher({ registry: createToolRegistry(converted) });
    const controller = new AbortController();
    const running = dispatcher.dispatch(
      { id: 'call-9', name: 'slow', arguments: '{}' },
      { signal: controller.signal },
    );
    await started.promise;
    controller.abort(new Error('stop'));
    const result = await running;
    expect(result.ok).toBe(false);
    expect(seen).toEqual([{ callId: 'call-9', aborted: true }]);
  });
});
