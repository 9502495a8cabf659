import { createToolRegistry, defineTool } from 'switchyard';

/** Whether the `slow` tool saw its call aborted, per call. */
export const aborted: string[] = [];

/** A small registry to serve: structured output, progress and cancellation, failure, a secret. */
export const fixtureRegistry = createToolRegistry([
  defineTool<{ a: number; b: number }, { sum: number }>({
    name: 'add',
    description: 'Add two numbers',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: { sum: { type: 'number' } },
      required: ['sum'],
    },
    safety: { sideEffectLevel: 'none' },
    handler: ({ a, b }) => ({ sum: a + b }),
  }),
  defineTool<{ tag: string }>({
    name: 'slow',
    description: 'Reports progress, then waits until cancelled',
    inputSchema: { type: 'object', properties: { tag: { type: 'string' } }, required: ['tag'] },
    safety: { sideEffectLevel: 'none' },
    handler: ({ tag }, runtime) =>
      new Promise((_resolve, reject) => {
        runtime.emit({ progress: 1, total: 10, message: 'started' });
        runtime.signal.addEventListener('abort', () => {
          aborted.push(tag);
          reject(runtime.signal.reason);
        });
      }),
  }),
  defineTool({
    name: 'boom',
    description: 'Always fails',
    inputSchema: { type: 'object' },
    safety: { sideEffectLevel: 'none' },
    handler: () => {
      throw new Error('the boom tool failed on purpose');
    },
  }),
  defineTool({
    name: 'secret',
    description: 'Returns a secret the redaction layer must scrub',
    inputSchema: { type: 'object' },
    safety: { sideEffectLevel: 'none' },
    handler: () => 'the key is sk-live-1234',
  }),
]);
