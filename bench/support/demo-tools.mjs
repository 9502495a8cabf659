// The two tools the benchmarks dispatch: a pure one and an I/O-bound one that honours cancellation.
// Defined with the compiled library (dist/), as users would; plain JavaScript so that
// `switchyard run --tools` loads it without a TypeScript loader (see add-tools.mjs).
import { defineTool } from 'switchyard';

/** `add(a, b)`: a pure tool with a closed schema. */
export const addTool = defineTool({
  name: 'add',
  description: 'Add two numbers.',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  safety: { sideEffectLevel: 'none' },
  handler: ({ a, b }) => a + b,
});

/** Waits `ms`, then answers `{ waitedMs }`; the call's signal cancels the wait. */
export const waitTool = defineTool({
  name: 'wait',
  description: 'Wait for a number of milliseconds (at most 5000), then return.',
  inputSchema: {
    type: 'object',
    properties: { ms: { type: 'integer', minimum: 0, maximum: 5000 } },
    required: ['ms'],
    additionalProperties: false,
  },
  safety: { readOnly: true },
  handler: ({ ms }, runtime) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve({ waitedMs: ms }), ms);
      runtime.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(runtime.signal.reason);
      });
    }),
});
