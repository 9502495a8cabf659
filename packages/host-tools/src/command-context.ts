import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { Launcher } from './command-isolation.js';
import type { CommandRules } from './command-policy.js';
import type { CommandProcess } from './command-process.js';
import type { RootScope } from './root-scope.js';

/** When a `run_command` call returns while its command keeps running. */
export interface CommandBehavior {
  /** Foreground window: a command still running after it returns `{ status: 'running', … }`. Default: wait for the end. */
  readonly backgroundAfterMs?: number;
  /** Interval of progress events while a call waits. Default 3000 ms. */
  readonly progressIntervalMs?: number;
  /** Bytes of recent output a progress event carries. Default 1600. */
  readonly progressMaxInlineBytes?: number;
}

/** What the command tools share: scopes, rules, limits and the commands started so far. */
export interface CommandContext {
  /** Working directories are confined to this scope. */
  readonly scope: RootScope;
  readonly rules: CommandRules;
  readonly maxInlineBytes: number;
  readonly maxOutputBytes: number;
  readonly timeoutMs: number;
  readonly env: NodeJS.ProcessEnv;
  readonly behavior: Required<Omit<CommandBehavior, 'backgroundAfterMs'>> &
    Pick<CommandBehavior, 'backgroundAfterMs'>;
  /** Where command output is kept, and the scope that reads it back. */
  readonly artifacts: RootScope;
  readonly commands: Map<string, CommandProcess>;
  /** Tee a `producer | filter` pipeline's full output to a capture file. */
  readonly preserveFilteredOutput: boolean;
  /** Removes the artifact directory on close (it was created for this set). */
  readonly ownsArtifacts: boolean;
  /** Give an argv starting with `git` the git tools' hardening. */
  readonly hardenGit: boolean;
  /** How commands are started, found on first use (rejects when the asked isolation is missing). */
  readonly launcher: () => Promise<Launcher>;
}

/** A fresh command id: `cmd_` and 12 random hex digits. */
export function newCommandId(): string {
  return `cmd_${randomBytes(6).toString('hex')}`;
}

/** Kills every command still running (whole process groups), waits for them, removes owned output. */
export async function closeCommands(context: CommandContext): Promise<void> {
  for (const command of context.commands.values()) command.stop('cancelled');
  await Promise.all([...context.commands.values()].map((command) => command.ended));
  if (context.ownsArtifacts) await rm(context.artifacts.root, { recursive: true, force: true });
}
