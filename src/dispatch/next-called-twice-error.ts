import { SwitchyardError } from '../errors.js';

/**
 * A middleware layer called `next()` a second time for one call. A call executes at most once per
 * dispatch, so the second `next()` rejects with this error instead of running the rest of the
 * stack again; inside `composeToolCallers` the layer's call then yields a
 * `tool_middleware_exception` result naming the layer. Retries belong to a tool's retry policy.
 */
export class NextCalledTwiceError extends SwitchyardError {
  static readonly CODE = 'next_called_twice';
  readonly code = NextCalledTwiceError.CODE;
  /** The layer that called `next()` twice (its function name), or `caller` for a hand-built one. */
  readonly layer: string;

  constructor(layer: string) {
    super(
      `${layer} called next() more than once for one call; a call executes at most once per dispatch (use the tool's retry policy to repeat it)`,
    );
    this.layer = layer;
  }
}

/** A rejected promise nobody is obliged to await: a layer that drops it causes no unhandled rejection. */
export function nextCalledTwice(layer: string): Promise<never> {
  const rejected = Promise.reject(new NextCalledTwiceError(layer));
  rejected.catch(() => {});
  return rejected;
}
