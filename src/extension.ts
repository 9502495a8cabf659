// `switchyard/extension`: what packages that extend Switchyard (providers, executors, tool sets,
// adapters) share with the core, so each reports misuse and crosses process boundaries the same
// way: option checks that throw `InvalidOptionError` naming the option, errors as plain data and
// back, an abortable sleep, and the load of an optional peer with a clear error when it is missing.

export { type ErrorData, fromErrorData, toErrorData } from './actors/error-data.js';
export { FifoQueue } from './actors/fifo-queue.js';
export { sleep } from './dispatch/backoff.js';
export { errorMessage } from './errors.js';
export {
  checkBoolean,
  checkFunction,
  checkNonNegative,
  checkNumberMap,
  checkObject,
  checkOneOf,
  checkOptionalFunction,
  checkPositive,
  checkString,
  checkStringList,
  checkTimeLimit,
  optionsObject,
} from './option-checks.js';
export { requireOptionalPeer } from './optional-peer.js';
export { CostTally } from './tools/tool-cost.js';
