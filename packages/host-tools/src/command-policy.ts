import { retryableDenial, type ToolDenial, terminalDenial } from 'switchyard';

/** A command as `run_command` is about to start it. */
export type CommandRequest =
  | { readonly mode: 'argv'; readonly argv: readonly string[]; readonly cwd: string }
  | { readonly mode: 'shell'; readonly command: string; readonly cwd: string };

/** What a `commandPolicy` hook decides: run it, refuse it (the reason reaches the model), or run another. */
export type CommandDecision =
  | { readonly action: 'approve' }
  | { readonly action: 'deny'; readonly reason: string }
  | { readonly action: 'rewrite'; readonly argv: readonly string[] }
  | { readonly action: 'rewrite'; readonly command: string };

/** A hook deciding each command; it sees the request after the shell and cwd checks. */
export type CommandPolicy = (request: CommandRequest) => CommandDecision | Promise<CommandDecision>;

/** The command-level settings the decision needs. */
export interface CommandRules {
  readonly allowShell: boolean;
  /** Each entry: a program name (`'git'`) or a list of leading arguments (`['git', 'log']`). */
  readonly allowArgvPrefixes: readonly (string | readonly string[])[] | undefined;
  readonly commandPolicy: CommandPolicy | undefined;
}

/**
 * True when `argv` starts with `prefix`, comparing whole arguments exactly: `['git', 'log']`
 * allows `git log -1`, never `git logx` or `git 'log; rm'`.
 */
export function matchesArgvPrefix(
  argv: readonly string[],
  prefix: string | readonly string[],
): boolean {
  const wanted = typeof prefix === 'string' ? [prefix] : prefix;
  if (wanted.length === 0 || wanted.length > argv.length) return false;
  return wanted.every((argument, index) => argv[index] === argument);
}

const EXEC = 'process.exec';

/**
 * Applies the rules in order: shell mode only when allowed, then the policy hook (which may
 * rewrite), then the argv allow-list, checked on the final request (a shell command never passes a
 * list). Returns the request to run, or the denial.
 */
export async function decideCommand(
  rules: CommandRules,
  requested: CommandRequest,
): Promise<{ readonly request: CommandRequest } | { readonly denial: ToolDenial }> {
  if (requested.mode === 'shell' && !rules.allowShell) {
    return {
      denial: retryableDenial(
        'arg_constraint',
        'shell commands are not allowed here; pass argv instead',
        {
          capability: 'process.shell',
        },
      ),
    };
  }
  let request = requested;
  if (rules.commandPolicy !== undefined) {
    const decision = await rules.commandPolicy(request);
    if (decision.action === 'deny') {
      return { denial: terminalDenial('hook_deny', decision.reason, { capability: EXEC }) };
    }
    if (decision.action === 'rewrite') {
      request =
        'argv' in decision
          ? { mode: 'argv', argv: [...decision.argv], cwd: request.cwd }
          : { mode: 'shell', command: decision.command, cwd: request.cwd };
    }
  }
  const prefixes = rules.allowArgvPrefixes;
  if (prefixes !== undefined) {
    const allowed =
      request.mode === 'argv' && prefixes.some((prefix) => matchesArgvPrefix(request.argv, prefix));
    if (!allowed) {
      const shown = prefixes.map((prefix) =>
        typeof prefix === 'string' ? prefix : prefix.join(' '),
      );
      return {
        denial: retryableDenial(
          'arg_constraint',
          `only commands starting with one of these argument lists may run: ${shown.join(' | ')}`,
          { capability: EXEC },
        ),
      };
    }
  }
  return { request };
}
