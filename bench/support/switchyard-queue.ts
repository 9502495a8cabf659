/** The compiled `switchyard/queue` (see switchyard.ts for why benchmarks use dist/). */
export * from '@switchyard/queue';
