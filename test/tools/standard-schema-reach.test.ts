// A Standard Schema tool everywhere a tool goes: the worker pool, the providers' tool
// definitions, the MCP server's listing.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createWorkerPool, type WorkerPool } from '../../src/executors.js';
import { createDispatcher, createToolRegistry, defineTool } from '../../src/index.js';
import { mcpToolList } from '../../src/mcp/mcp-tool-list.js';
import { toAnthropicTools } from '../../src/providers/anthropic/to-anthropic-tools.js';
import { toChatTools } from '../../src/providers/openai/chat-request.js';
import { toResponsesTools } from '../../src/providers/openai/responses-request.js';

const WEATHER = z.object({ city: z.string().min(2), unit: z.enum(['c', 'f']).default('c') });
const WEATHER_JSON = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 2 },
    unit: { type: 'string', enum: ['c', 'f'], default: 'c' },
  },
  required: ['city'],
};

const weather = defineTool({
  name: 'weather',
  description: 'Current weather',
  inputSchema: WEATHER,
  outputSchema: z.object({ city: z.string(), degrees: z.number() }),
  safety: { readOnly: true },
  handler: ({ city }) => ({ city, degrees: 21 }),
});

describe('Standard Schema tools in model-facing definitions', () => {
  const definitions = createToolRegistry([weather]).modelDefinitions();

  it('sends the converted JSON Schema to OpenAI and Anthropic', () => {
    expect(toChatTools(definitions)[0]?.function.parameters).toEqual(WEATHER_JSON);
    expect(toResponsesTools(definitions)[0]?.parameters).toEqual(WEATHER_JSON);
    expect(toAnthropicTools(definitions)[0]?.input_schema).toEqual(WEATHER_JSON);
  });

  it('lists the converted input and output schemas over MCP', () => {
    const [listed] = mcpToolList(createToolRegistry([weather]));
    expect(listed?.inputSchema).toEqual(WEATHER_JSON);
    expect(listed?.outputSchema).toEqual({
      type: 'object',
      properties: { city: { type: 'string' }, degrees: { type: 'number' } },
      required: ['city', 'degrees'],
      additionalProperties: false,
    });
  });
});

describe('a Standard Schema tool on the worker executor', () => {
  let pool: WorkerPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  // The schema object cannot cross the thread boundary and need not: the main thread validates,
  // the worker's handler gets the arguments as sent (JSON), without the library's transforms.
  const echo = defineTool({
    name: 'echo',
    description: 'Echo',
    inputSchema: z.object({ value: z.string().transform((text) => text.length) }),
    safety: { readOnly: true },
    executor: {
      kind: 'worker',
      module: new URL('../fixtures/workers/tools.mjs', import.meta.url),
      export: 'echo',
    },
  });

  function setup() {
    pool = createWorkerPool({ maxThreads: 1 });
    return createDispatcher({ registry: createToolRegistry([echo]), executors: [pool.executor] });
  }

  it('validates on the main thread and runs the worker with the JSON arguments', async () => {
    const dispatcher = setup();
    const ran = await dispatcher.dispatch({ id: 'a', name: 'echo', arguments: { value: 'abc' } });
    expect(ran).toMatchObject({ ok: true, executor: 'worker', result: 'abc' });
    const refused = await dispatcher.dispatch({ id: 'b', name: 'echo', arguments: { value: 5 } });
    expect(refused).toMatchObject({ ok: false, status: 'schema_violation' });
    expect(refused.error).toContain('\n- value: ');
  });
});
