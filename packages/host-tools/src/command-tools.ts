import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidOptionError } from 'switchyard';
import {
  checkBoolean,
  checkFunction,
  checkObject,
  checkOneOf,
  checkPositive,
  checkStringList,
  optionsObject,
} from 'switchyard/extension';
import type { AnyTool } from 'switchyard/tools';
import { type CommandBehavior, type CommandContext, closeCommands } from './command-context.js';
import { type CommandIsolation, findLauncher, type Launcher } from './command-isolation.js';
import type { CommandPolicy } from './command-policy.js';
import { buildHostToolSet, type HostToolSetOptions } from './host-tool-set.js';
import { readCommandOutputTailTool, readCommandOutputTool } from './read-command-output-tool.js';
import { createRootScope } from './root-scope.js';
import { runCommandTool } from './run-command-tool.js';

/** Options of `commandTools`. */
export interface CommandToolsOptions extends HostToolSetOptions {
  /** Commands run here or in a directory below it (must exist). */
  readonly cwd: string;
  /** Accept shell command lines (`sh -c`) besides argv. Default false. */
  readonly allowShell?: boolean;
  /**
   * Refuse every command whose argv does not start with one of these (whole arguments, exact).
   * An allow-list bounds which programs start, not what they do: an allowed program may read
   * anything the user can, and may run others. See `hardenGit` for git.
   */
  readonly allowArgvPrefixes?: readonly (string | readonly string[])[];
  /** Approves, denies (with a reason for the model) or rewrites each command. */
  readonly commandPolicy?: CommandPolicy;
  /** Ceiling of inline output per stream; a larger `max_inline_bytes` is clamped. Default 12 000. */
  readonly maxInlineBytes?: number;
  /** Bytes of each stream kept on disk for the readers. Default 16 MiB. */
  readonly maxOutputBytes?: number;
  /** Longest a command may run; a call may ask for less. Default 120 000 ms. */
  readonly timeoutMs?: number;
  /** Environment given to commands, added to a clean one (`PATH`, `HOME`=cwd, `LANG`). */
  readonly env?: Readonly<Record<string, string>>;
  /** Names of host environment variables passed through as they are. Default `['PATH']`. */
  readonly inheritEnv?: readonly string[];
  /** Foreground window and progress of each command. */
  readonly commandBehavior?: CommandBehavior;
  /**
   * Rewrite a `producer | tail/wc/grep/sort/uniq/cut/tr` shell pipeline to tee the producer's full
   * output to a capture file (`output_capture` on the result) instead of losing it. Conservative:
   * never for `head`, `grep -q/-m`, substitutions, subshells, redirections or background jobs.
   * Default true.
   */
  readonly preserveFilteredOutput?: boolean;
  /**
   * Run an argv whose program is `git` with the git tools' hardening: the repository's
   * configuration runs no program (fsmonitor, hooks, filters, pagers, signing, …), reads nothing
   * outside the root (or the repository is refused), user and system configuration are left out,
   * and remote transports are off (`protocol.allow=never`: no fetch, pull, push or clone). Shell
   * lines and programs that start git themselves (`make`, `npm test`, `env git`) are not covered.
   * Default true; false runs git as the repository configures it.
   */
  readonly hardenGit?: boolean;
  /** Where command output is kept. Default: a new temporary directory, removed by `close`. */
  readonly outputDirectory?: string;
  /**
   * What keeps a command's processes together so none outlives it. `pid-namespace`: each
   * command in a PID namespace of its own (Linux, util-linux `unshare`, as root or with user
   * namespaces): nothing it starts survives its end, its timeout or `close()`.
   * `process-group`: its own process group, which a descendant can leave (`setsid`). `auto`
   * (default): a namespace where the host can make one, else process groups; `isolation()` says
   * which. Asking for `pid-namespace` where there is none fails every command with the reason.
   */
  readonly isolation?: CommandIsolation | 'auto';
}

/** The command tools and the handle that ends their commands. */
export interface CommandTools {
  readonly tools: AnyTool[];
  /** Commands started and still running (background ones included). */
  running(): number;
  /** Kills every command still running (everything each started) and removes owned output. Call at session end. */
  close(): Promise<void>;
  /** The isolation commands run with (probed on first use). Rejects when `pid-namespace` was asked for and is missing. */
  isolation(): Promise<CommandIsolation>;
}

const FACTORY = 'commandTools';

function environment(settings: CommandToolsOptions, home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
  };
  const inherit =
    settings.inheritEnv === undefined
      ? ['PATH']
      : checkStringList(FACTORY, 'inheritEnv', settings.inheritEnv);
  for (const name of inherit) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  const extra = settings.env === undefined ? {} : checkObject(FACTORY, 'env', settings.env);
  for (const [name, value] of Object.entries(extra)) {
    if (typeof value !== 'string')
      throw new InvalidOptionError('env', `${FACTORY}: env.${name} must be a string`);
    env[name] = value;
  }
  return env;
}

function prefixes(value: unknown): readonly (string | readonly string[])[] | undefined {
  if (value === undefined) return undefined;
  const valid =
    Array.isArray(value) &&
    value.every(
      (entry) =>
        typeof entry === 'string' ||
        (Array.isArray(entry) &&
          entry.length > 0 &&
          entry.every((part) => typeof part === 'string')),
    );
  if (!valid) {
    throw new InvalidOptionError(
      'allowArgvPrefixes',
      `${FACTORY}: allowArgvPrefixes must list strings or non-empty string lists`,
    );
  }
  return value.map((entry) => (typeof entry === 'string' ? entry : [...entry]));
}

/**
 * `run_command`, `read_command_output` and `read_command_output_tail` (group `command`). Commands
 * run without a shell unless `allowShell`, in a clean environment, confined to `cwd`, each in a
 * PID namespace where the host can make one, else in its own process group (`isolation`): when
 * the program ends, times out or is cancelled, what it started is killed. An argv starting with
 * `git` runs hardened against the repository's configuration (`hardenGit`). Throws
 * `InvalidOptionError` naming a bad option.
 *
 * @example
 * const commands = commandTools({ cwd: repo, allowArgvPrefixes: [['git', 'status'], ['npm', 'test']] });
 * const registry = createToolRegistry(commands.tools);
 * // … at session end:
 * await commands.close();
 */
export function commandTools(options: CommandToolsOptions): CommandTools {
  const settings = optionsObject(FACTORY, options);
  const scope = createRootScope(settings.cwd, 'cwd');
  const number = (option: keyof CommandToolsOptions, fallback: number) =>
    settings[option] === undefined
      ? fallback
      : checkPositive(FACTORY, option, settings[option], { integer: true });
  const behavior =
    settings.commandBehavior === undefined
      ? {}
      : (checkObject(FACTORY, 'commandBehavior', settings.commandBehavior) as CommandBehavior);
  const isolation =
    settings.isolation === undefined
      ? 'auto'
      : checkOneOf(FACTORY, 'isolation', settings.isolation, [
          'auto',
          'pid-namespace',
          'process-group',
        ] as const);
  let launcher: Promise<Launcher> | undefined;
  const findOnce = () => {
    launcher ??= findLauncher(isolation);
    return launcher;
  };
  const ownsArtifacts = settings.outputDirectory === undefined;
  let artifactRoot: string;
  if (ownsArtifacts) artifactRoot = mkdtempSync(join(tmpdir(), 'switchyard-commands-'));
  else {
    artifactRoot = settings.outputDirectory as string;
    mkdirSync(artifactRoot, { recursive: true });
  }
  const context: CommandContext = {
    scope,
    rules: {
      allowShell:
        settings.allowShell === undefined
          ? false
          : checkBoolean(FACTORY, 'allowShell', settings.allowShell),
      allowArgvPrefixes: prefixes(settings.allowArgvPrefixes),
      commandPolicy:
        settings.commandPolicy === undefined
          ? undefined
          : checkFunction(FACTORY, 'commandPolicy', settings.commandPolicy),
    },
    maxInlineBytes: number('maxInlineBytes', 12_000),
    maxOutputBytes: number('maxOutputBytes', 16 * 1024 * 1024),
    timeoutMs: number('timeoutMs', 120_000),
    env: environment(settings, scope.root),
    behavior: {
      ...(behavior.backgroundAfterMs === undefined
        ? {}
        : {
            backgroundAfterMs: checkPositive(
              FACTORY,
              'commandBehavior.backgroundAfterMs',
              behavior.backgroundAfterMs,
            ),
          }),
      progressIntervalMs:
        behavior.progressIntervalMs === undefined
          ? 3000
          : checkPositive(
              FACTORY,
              'commandBehavior.progressIntervalMs',
              behavior.progressIntervalMs,
            ),
      progressMaxInlineBytes:
        behavior.progressMaxInlineBytes === undefined
          ? 1600
          : checkPositive(
              FACTORY,
              'commandBehavior.progressMaxInlineBytes',
              behavior.progressMaxInlineBytes,
              { integer: true },
            ),
    },
    artifacts: createRootScope(artifactRoot, 'outputDirectory'),
    commands: new Map(),
    preserveFilteredOutput:
      settings.preserveFilteredOutput === undefined
        ? true
        : checkBoolean(FACTORY, 'preserveFilteredOutput', settings.preserveFilteredOutput),
    ownsArtifacts,
    launcher: findOnce,
    hardenGit:
      settings.hardenGit === undefined
        ? true
        : checkBoolean(FACTORY, 'hardenGit', settings.hardenGit),
  };
  const tools = buildHostToolSet(
    FACTORY,
    [runCommandTool(context), readCommandOutputTool(context), readCommandOutputTailTool(context)],
    options,
  );
  return {
    tools,
    running: () =>
      [...context.commands.values()].filter((command) => command.status === 'running').length,
    close: () => closeCommands(context),
    isolation: async () => (await findOnce()).isolation,
  };
}
