import type { ExecutionOutcome } from '../dispatch/executor.js';

/** An outcome for a call the pool itself failed (a crashed, stopped, closed or unhealthy pool). */
export function executorFailure(message: string, exitCode?: number): ExecutionOutcome {
  return {
    ok: false,
    error: new Error(message),
    executorFailure: exitCode === undefined ? { message } : { message, exitCode },
  };
}

/** The exit code of a dead worker, from Piscina's error (an out-of-memory worker counts as 134). */
export function exitCodeOf(error: unknown): number | undefined {
  const match = /exited with code:? (-?\d+)/.exec(describeFailure(error));
  if (match !== null) return Number(match[1]);
  const code = (error as { code?: unknown })?.code;
  return code === 'ERR_WORKER_OUT_OF_MEMORY' ? 134 : undefined;
}

/** The message of what killed a worker, with its code when it has one. */
export function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return code ? `${error.message} (${String(code)})` : error.message;
}

/** Why a sent call failed with its worker: the pool closed, the worker was stopped, or it crashed. */
export function lostCallReason(
  why: 'closed' | 'stopped' | 'crashed',
  toolName: string,
  cause: string,
): string {
  if (why === 'closed') return `the worker pool closed while tool "${toolName}" ran`;
  if (why === 'stopped') return 'the worker was stopped to cancel another call of its batch';
  return `the worker running tool "${toolName}" crashed: ${cause}`;
}
