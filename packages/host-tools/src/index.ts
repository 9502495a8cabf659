// switchyard/host-tools: read, search, command and git tools scoped to a root, and typed
// deterministic stdlib tools.

export { compileLinearRegex, type LinearMatch, type LinearRegex } from 'switchyard/tools';
export { evaluateArithmetic } from './arithmetic.js';
export type { CommandBehavior } from './command-context.js';
export type { CommandIsolation } from './command-isolation.js';
export {
  type CommandDecision,
  type CommandPolicy,
  type CommandRequest,
  matchesArgvPrefix,
} from './command-policy.js';
export type { CommandSnapshot } from './command-snapshot.js';
export { type CommandTools, type CommandToolsOptions, commandTools } from './command-tools.js';
export type { GitRepoOptions } from './git-context.js';
export { type GitToolboxOptions, gitToolbox } from './git-toolbox.js';
export { type GitToolsOptions, gitTools } from './git-tools.js';
export type { HostRefusal } from './host-refusal.js';
export { isHostRefusal } from './host-refusal.js';
export type { HostToolSetOptions } from './host-tool-set.js';
export { queryJson } from './json-query.js';
export { type ReadToolsOptions, readTools } from './read-tools.js';
export { renderAsText } from './render-as-text.js';
export { createRootScope, type RootScope } from './root-scope.js';
export { type StdlibToolsOptions, stdlibTools } from './stdlib-tools.js';
export type { BoundingBox, OcrBlock, OcrLine, OcrStructure, OcrToken } from './tesseract-tsv.js';
export { withHostToolResults } from './with-host-tool-results.js';
