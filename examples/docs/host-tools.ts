// packages/host-tools/README.md: a repository's files, allow-listed commands and the stdlib tools.
declare const repo: string;

// #region quick
import { commandTools, readTools, stdlibTools, withHostToolResults } from '@switchyard/host-tools';
import { composeToolCallers, createDispatcher, createToolRegistry } from 'switchyard';

const commands = commandTools({
  cwd: repo,
  allowArgvPrefixes: [
    ['git', 'status'],
    ['npm', 'test'],
  ],
});
const dispatcher = createDispatcher({
  registry: createToolRegistry([
    ...readTools({ root: repo, excludeGlobs: ['node_modules/**'] }),
    ...commands.tools,
    ...stdlibTools({ workers: false }),
  ]),
  caller: composeToolCallers([withHostToolResults()]),
});
// … at session end: kills background commands (whole process groups)
await commands.close();

// #endregion quick

export { dispatcher };
