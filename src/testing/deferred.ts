/** A promise with its settle functions exposed: the latch and gate of deterministic tests. */
export interface Deferred<T> {
  readonly promise: Promise<T>;
  /** Settles the promise with `value`; later calls do nothing. */
  resolve(value: T): void;
  /** Rejects the promise with `reason`; later calls do nothing. */
  reject(reason: unknown): void;
  /** True once resolve or reject was called. */
  readonly settled: boolean;
}

/**
 * Creates a deferred promise. Tests hold tools at a gate (`await gate.promise`) and open it in the
 * order they want, instead of sleeping and hoping.
 *
 * @example
 * const gate = deferred<void>();
 * const tool = defineTool({ ..., handler: async () => { await gate.promise; return 'done'; } });
 * gate.resolve();
 */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  let settled = false;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return {
    promise,
    resolve(value) {
      settled = true;
      resolve(value);
    },
    reject(reason) {
      settled = true;
      reject(reason);
    },
    get settled() {
      return settled;
    },
  };
}
