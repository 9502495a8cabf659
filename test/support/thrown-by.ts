/** What `run` throws, or undefined when it returns: for asserting on the error itself. */
export function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}
