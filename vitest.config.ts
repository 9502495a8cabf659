import { readdirSync } from 'node:fs';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * Tests run the workspace from its TypeScript sources: `switchyard` and `@switchyard/*` resolve
 * through this export condition to `src/` rather than to a build. The processes the tests start
 * (CLI runs, queue workers, MCP servers) inherit it through NODE_OPTIONS.
 */
const SOURCE_CONDITION = '@switchyard/source';
process.env.NODE_OPTIONS = [process.env.NODE_OPTIONS, `--conditions=${SOURCE_CONDITION}`]
  .filter(Boolean)
  .join(' ');

const test = {
  globalSetup: ['test/support/temp-root.ts'],
  testTimeout: 20_000,
  hookTimeout: 20_000,
  // `expect.poll` waits for a state (a server listening, calls in flight), not for a deadline: its
  // default of one second fails on a loaded machine where a child process takes longer to start.
  expect: { poll: { timeout: 15_000 } },
};
const resolve = { conditions: [SOURCE_CONDITION, 'module', 'node', 'development|production'] };

/** One project per package: the core at the root (`--project core`), each integration by name. */
const packages: TestProjectInlineConfiguration[] = readdirSync('packages').map((name) => ({
  resolve,
  ssr: { resolve },
  test: { ...test, name, root: '.', include: [`packages/${name}/test/**/*.test.ts`] },
}));

export default defineConfig({
  test: {
    projects: [
      {
        resolve,
        ssr: { resolve },
        test: { ...test, name: 'core', include: ['test/**/*.test.ts'] },
      },
      ...packages,
    ],
  },
});
