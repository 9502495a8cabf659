// A Standard Schema tool everywhere a tool goes in the core: the model-facing definitions every
// provider package sends, and the worker pool. (The MCP listing: @switchyard/mcp's tests.)
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createWorkerPool, type WorkerPool } from '../../src/executors.js';
import { createDispatcher, createToolRegistry, defineTool } from '../../src/index.js';

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

  it('gives providers the converted JSON Schema', () => {
    expect(definitions[0]?.inputSchema).toEqual(WEATHER_JSON);
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
