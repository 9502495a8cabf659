// packages/queue/README.md: the dispatcher side of queue tools.
// #region dispatcher
// the dispatcher
import { createQueueExecutor } from '@switchyard/queue';
import { createDispatcher, createToolRegistry } from 'switchyard';
import { tools } from './queue-tools.js';

const queue = createQueueExecutor({ connection: 'redis://127.0.0.1:6379' });
const dispatcher = createDispatcher({
  registry: createToolRegistry(tools),
  executors: [queue.executor],
});
// … dispatch, dispatchTurn, agentLoop as usual
await queue.close();

// #endregion dispatcher

export { dispatcher };
