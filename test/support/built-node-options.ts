/**
 * NODE_OPTIONS without the source condition the test run sets (vitest.config.ts): a process
 * started with these resolves `switchyard` and `@switchyard/*` as users do, to the build.
 */
export const BUILT_NODE_OPTIONS = (process.env.NODE_OPTIONS ?? '')
  .split(' ')
  .filter((option) => !option.startsWith('--conditions='))
  .join(' ');
