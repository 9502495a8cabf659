// packages/queue/README.md: tools that run on queue workers, and the dispatcher that sends them.
import type { ToolRegistry } from 'switchyard';

declare const registry: ToolRegistry;

// #region quick
import { createQueueExecutor } from '@switchyard/queue';
import { createDispatcher } from 'switchyard';

const queue = createQueueExecutor({ connection: 'redis://127.0.0.1:6379' });
const dispatcher = createDispatcher({ registry, executors: [queue.executor] });

// #endregion quick

export { dispatcher, queue };
