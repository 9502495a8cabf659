/** A controller that aborts with `upstream`, and can abort on its own (a failed stream, an unsubscribe). */
export interface LinkedAbort {
  readonly controller: AbortController;
  /** Stops following `upstream`; call it when the work is over, so no listener is left behind. */
  unlink(): void;
}

/** An `AbortController` that also aborts, with the same reason, when `upstream` does. */
export function linkedAbort(upstream: AbortSignal | undefined): LinkedAbort {
  const controller = new AbortController();
  const onAbort = () => controller.abort(upstream?.reason);
  if (upstream?.aborted) onAbort();
  else upstream?.addEventListener('abort', onAbort, { once: true });
  return { controller, unlink: () => upstream?.removeEventListener('abort', onAbort) };
}
