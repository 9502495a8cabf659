import type { ChildProcess } from 'node:child_process';

/**
 * Kills a detached child's whole process group (the child and everything it started), so no
 * grandchild outlives a timeout or a cancellation. A group already gone is not an error.
 */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/**
 * Stops reading a stopped child's output once the child has exited: a descendant that left its
 * process group (`setsid`) may hold the pipes open for ever, and the call must still end.
 */
export function releaseWhenExited(child: ChildProcess): void {
  const release = () => {
    child.stdin?.destroy();
    child.stdout?.destroy();
    child.stderr?.destroy();
  };
  if (child.exitCode !== null || child.signalCode !== null) release();
  else child.once('exit', release);
}
