// Worker tool handlers for the soak run (plain JavaScript, loaded by worker threads).

export function echo(args) {
  return args.value ?? null;
}

export function fail(args) {
  throw Object.assign(new Error(`worker tool failed on purpose (${args.value})`), { status: 500 });
}

/** Ignores every signal: only its tool's time limit, by terminating the worker, stops it. */
export function hang() {
  return new Promise(() => {});
}

/** Ends its worker thread, as a broken native module or a stray process.exit would. */
export function crash() {
  process.exit(13);
}

/** Throws where nothing can catch it. */
export function uncaught() {
  setImmediate(() => {
    throw new Error('uncaught in a worker tool');
  });
  return new Promise(() => {});
}
