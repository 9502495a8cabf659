/**
 * Benchmarks measure the compiled library (`npm run build` → dist/), as users run it. Running the
 * TypeScript sources through tsx would add esbuild's keep-names wrapper to every closure created
 * per call and measure that instead.
 */

export { addTool, waitTool } from '../../dist/cli/example-tools.js';
export * from '../../dist/index.js';
