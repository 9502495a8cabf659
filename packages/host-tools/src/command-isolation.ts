import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** How `run_command` keeps a command's processes together: see the package README. */
export type CommandIsolation = 'pid-namespace' | 'process-group';

/** What to start a command with: the words put before its argv (none for a process group). */
export interface Launcher {
  readonly isolation: CommandIsolation;
  readonly prefix: readonly string[];
}

/**
 * The namespace's first process (PID 1) is this shell, not the command: a PID 1 ignores signals
 * it has no handler for and inherits every orphan, which would change how the command behaves.
 * The shell runs the command as its child with the same standard input (an asynchronous list
 * would get /dev/null, hence fd 3), waits for it and exits with its status; the kernel then kills
 * whatever is left in the namespace.
 */
const INIT = ['/bin/sh', '-c', 'exec 3<&0; "$@" 0<&3 3<&- & wait "$!"', 'switchyard-init'];

// `--kill-child` kills the namespace (through its PID 1) when `unshare` dies; `setpriv
// --pdeathsig` kills `unshare` when the host process dies, even by SIGKILL. Without root, a user
// namespace mapping only the current user makes the PID namespace possible.
const UNSHARE = ['unshare', '--pid', '--fork', '--kill-child', '--'];
const UNSHARE_AS_USER = [
  'unshare',
  '--user',
  '--map-current-user',
  '--pid',
  '--fork',
  '--kill-child',
  '--',
];
const DEATH_SIGNAL = ['setpriv', '--pdeathsig', 'KILL'];

const PROCESS_GROUP: Launcher = { isolation: 'process-group', prefix: [] };

/** Whether `prefix` starts `true` inside a namespace here (exit 0 within a few seconds). */
function works(prefix: readonly string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const [program = '', ...args] = [...prefix, ...INIT, 'true'];
    const child = spawn(program, args, { stdio: 'ignore', timeout: 5000 });
    child.on('error', () => resolve(false));
    child.on('exit', (code) => resolve(code === 0));
  });
}

/**
 * The best launcher this host offers for `preference`: with `auto` or `pid-namespace`, a PID
 * namespace through util-linux `unshare` (as root, or in a user namespace of the current user),
 * with `setpriv --pdeathsig` when present; else (`auto`) process groups. Probes by starting
 * `true` once per candidate until one works.
 *
 * @throws Error when `pid-namespace` is asked for and the host cannot make one.
 */
export async function findLauncher(preference: CommandIsolation | 'auto'): Promise<Launcher> {
  if (preference === 'process-group' || process.platform !== 'linux') {
    if (preference === 'pid-namespace') throw new Error('PID namespaces exist only on Linux');
    return PROCESS_GROUP;
  }
  const namespaces = process.getuid?.() === 0 ? [UNSHARE, UNSHARE_AS_USER] : [UNSHARE_AS_USER];
  for (const unshare of namespaces) {
    for (const prefix of [[...DEATH_SIGNAL, ...unshare], unshare]) {
      if (await works(prefix)) return { isolation: 'pid-namespace', prefix: [...prefix, ...INIT] };
    }
  }
  if (preference === 'pid-namespace') {
    throw new Error(
      'this host cannot start a PID namespace (util-linux unshare, run as root or with user namespaces allowed)',
    );
  }
  return PROCESS_GROUP;
}

/**
 * The host PID of the namespace's first process: the only child of the launcher `pid`. Undefined
 * when it has not started yet or is gone.
 */
export function namespaceInit(pid: number): number | undefined {
  try {
    const listed = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    if (listed !== '') return Number(listed.split(' ')[0]);
    return undefined;
  } catch {
    // Kernels without CONFIG_PROC_CHILDREN: find it by its parent.
  }
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) return Number(entry);
    } catch {
      // Gone meanwhile.
    }
  }
  return undefined;
}
