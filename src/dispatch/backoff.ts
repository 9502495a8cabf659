import type { RetryPolicy } from '../tools/tool-spec.js';

/** Delay before retry number `retry` (1 for the first retry), exponential and capped. */
export function backoffDelay(
  policy: Required<RetryPolicy>,
  retry: number,
  random: () => number,
): number {
  const base = Math.min(policy.maxDelayMs, policy.initialDelayMs * policy.factor ** (retry - 1));
  return policy.jitter ? base / 2 + (random() * base) / 2 : base;
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
