// docs/workers.md: a CPU-bound tool on a pool of worker threads.
// #region worker-tool
import { createDispatcher, createToolRegistry, defineTool } from 'switchyard';
import { createWorkerPool } from 'switchyard/executors';

const sha256 = defineTool({
  name: 'sha256',
  description: 'Hex SHA-256 of a text',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  safety: { sideEffectLevel: 'none' },
  timeoutMs: 5_000,
  // The module exports `sha256(args, runtime)`; it is imported once per worker.
  executor: {
    kind: 'worker',
    module: new URL('./sha256-worker.js', import.meta.url),
    export: 'sha256',
  },
});
const pool = createWorkerPool({ maxThreads: 4, resourceLimits: { maxOldGenerationSizeMb: 256 } });
const dispatcher = createDispatcher({
  registry: createToolRegistry([sha256]),
  executors: [pool.executor],
});
// …
await pool.close();

// #endregion worker-tool

export { dispatcher };
