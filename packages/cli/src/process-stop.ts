/**
 * A signal that aborts on the process's first SIGINT or SIGTERM: long-running commands (a worker,
 * an MCP server) stop taking work and finish what runs instead of dying mid-call.
 */
export function processStop(): AbortSignal {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return controller.signal;
}
