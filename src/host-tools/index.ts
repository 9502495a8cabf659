// switchyard/host-tools: read, search, command and git tools scoped to a root, and typed
// deterministic stdlib tools.
export type { HostRefusal } from './host-refusal.js';
export { isHostRefusal } from './host-refusal.js';
export type { HostToolSetOptions } from './host-tool-set.js';
export { compileLinearRegex, type LinearMatch, type LinearRegex } from './linear-regex.js';
export { type ReadToolsOptions, readTools } from './read-tools.js';
export { createRootScope, type RootScope } from './root-scope.js';
