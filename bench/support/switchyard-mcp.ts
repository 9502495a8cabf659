/** The compiled `switchyard/mcp` subpath (see `switchyard.ts`: benchmarks measure dist/). */
export * from '@switchyard/mcp';
