import { readdirSync, readFileSync } from 'node:fs';

let sequence = 0;

/**
 * A `sleep` duration no other process on the machine has: a command that sleeps for it can be
 * found in /proc from the host, whatever PID namespace it runs in.
 */
export function uniqueToken(): string {
  sequence += 1;
  return `${600 + sequence}.${process.pid}${Math.floor(Math.random() * 1e6)}`;
}

/** Host PIDs of live processes whose command line holds `token` (zombies count as dead). */
export function survivors(token: string): number[] {
  return processes((cmdline) => cmdline.includes(token));
}

/** Host PIDs of live `sleep <token>` processes. */
export function sleepers(token: string): number[] {
  return processes((cmdline) => cmdline === `sleep\0${token}\0`);
}

function processes(matches: (cmdline: string) => boolean): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (matches(cmdline) && state !== 'Z' && state !== 'X') found.push(Number(entry));
    } catch {
      // The process ended while it was read.
    }
  }
  return found;
}

/** Polls `check` every 10 ms, for up to 5 s. */
export async function until(check: () => boolean, what: string): Promise<void> {
  for (let tries = 0; tries < 500; tries += 1) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`gave up waiting for ${what}`);
}
