import { setFlagsFromString } from 'node:v8';

/** V8 flags that size every new heap of the process, beating a worker's `resourceLimits`. */
const HEAP_FLAGS = /^--max[-_](old|semi)[-_]space[-_]size\b/;

function hostSetsHeapFlags(): boolean {
  const nodeOptions = (process.env.NODE_OPTIONS ?? '').split(/\s+/);
  return [...process.execArgv, ...nodeOptions].some((flag) => HEAP_FLAGS.test(flag));
}

/**
 * Makes a pool's `resourceLimits` hold whatever flags the host process runs with. V8 heap flags
 * such as `--max-old-space-size` are process-wide and win over a worker's own limits, so a host
 * started with `--max-old-space-size=4096` would let a 48 MB worker grow to 4 GB. When the pool
 * sets heap limits and the host set such a flag, the flag is reset for heaps created from now on
 * (the host's own heap keeps its size; other workers started later without limits of their own
 * get V8's default). Returns `execArgv` without heap flags, which workers refuse anyway.
 */
export function workerExecArgv(
  execArgv: readonly string[],
  limits: { readonly maxOldGenerationSizeMb?: number; readonly maxYoungGenerationSizeMb?: number },
): string[] {
  const sized =
    limits.maxOldGenerationSizeMb !== undefined || limits.maxYoungGenerationSizeMb !== undefined;
  if (sized && hostSetsHeapFlags()) {
    setFlagsFromString('--max-old-space-size=0');
    setFlagsFromString('--max-semi-space-size=0');
  }
  return execArgv.filter((flag) => !HEAP_FLAGS.test(flag));
}
