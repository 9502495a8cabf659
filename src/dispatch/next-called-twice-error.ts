import { NextCalledTwiceError } from '../errors.js';

/** A rejected promise nobody is obliged to await: a layer that drops it causes no unhandled rejection. */
export function nextCalledTwice(layer: string): Promise<never> {
  const rejected = Promise.reject(new NextCalledTwiceError(layer));
  rejected.catch(() => {});
  return rejected;
}
