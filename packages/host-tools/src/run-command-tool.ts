import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolRuntime } from 'switchyard';
import { type CommandContext, newCommandId } from './command-context.js';
import { type CommandRequest, decideCommand } from './command-policy.js';
import { type CommandProcess, startCommand } from './command-process.js';
import { type CommandSnapshot, commandSnapshot } from './command-snapshot.js';
import { preserveFilteredOutput } from './filtered-output.js';
import { refusedOutput } from './host-refusal.js';
import type { HostToolDefinition } from './host-tool-set.js';
import { prepareCommand } from './prepare-command.js';

interface RunArgs {
  readonly argv?: readonly string[];
  readonly command?: string;
  readonly cwd?: string;
  readonly stdin?: string;
  readonly timeout_ms?: number;
  readonly max_inline_bytes?: number;
  readonly background_after_ms?: number;
}

function schema(allowShell: boolean) {
  return {
    type: 'object',
    properties: {
      argv: {
        type: 'array',
        items: { type: 'string', maxLength: 10_000 },
        minItems: 1,
        maxItems: 500,
        description: 'Program and arguments, run without a shell.',
      },
      ...(allowShell
        ? {
            command: {
              type: 'string',
              maxLength: 20_000,
              description: 'A shell command line (sh -c).',
            },
          }
        : {}),
      cwd: {
        type: 'string',
        description: 'Working directory relative to the command root (default ".").',
      },
      stdin: { type: 'string', maxLength: 1_000_000 },
      timeout_ms: { type: 'integer', minimum: 1 },
      max_inline_bytes: { type: 'integer', minimum: 0 },
      background_after_ms: { type: 'integer', minimum: 0 },
    },
    additionalProperties: false,
  } as const;
}

const SHELLS = new Set(['sh', 'bash', '/bin/sh', '/bin/bash', '/usr/bin/bash']);

/** The argv to start: a shell line (or `sh -c` argv) pipeline may be rewritten to keep its producer's output. */
function executedArgv(
  context: CommandContext,
  request: CommandRequest,
  directory: string,
): { argv: readonly string[]; capture?: string } {
  const [program = '', flag, line, ...rest] = request.mode === 'argv' ? request.argv : [];
  const shellLine =
    request.mode === 'shell'
      ? request.command
      : SHELLS.has(program) && flag === '-c' && line !== undefined && rest.length === 0
        ? line
        : undefined;
  const argv = request.mode === 'argv' ? request.argv : ['/bin/sh', '-c', request.command];
  if (!context.preserveFilteredOutput || shellLine === undefined) return { argv };
  const capture = join(directory, 'producer.log');
  const rewritten = preserveFilteredOutput(shellLine, capture);
  if (rewritten === null) return { argv };
  return { argv: [request.mode === 'argv' ? program : '/bin/sh', '-c', rewritten], capture };
}

/** The snapshot with `output_capture` when a rewritten pipeline kept its producer's output. */
function withCapture(snapshot: CommandSnapshot, capture: string | undefined) {
  if (capture === undefined || !existsSync(capture)) return snapshot;
  return { ...snapshot, output_capture: { path: capture, bytes: statSync(capture).size } };
}

/** Waits for the end, the foreground window, or the call's cancellation (which kills the command). */
async function foreground(
  command: CommandProcess,
  windowMs: number | undefined,
  runtime: ToolRuntime,
  context: CommandContext,
): Promise<void> {
  const timers: NodeJS.Timeout[] = [];
  let onAbort: () => void = () => {};
  try {
    const waits: Promise<unknown>[] = [command.ended];
    if (windowMs !== undefined)
      waits.push(new Promise((resolve) => timers.push(setTimeout(resolve, windowMs))));
    waits.push(
      new Promise((_, reject) => {
        onAbort = () => {
          command.stop('cancelled');
          reject(runtime.signal.reason);
        };
        if (runtime.signal.aborted) onAbort();
        else runtime.signal.addEventListener('abort', onAbort, { once: true });
      }),
    );
    const interval = setInterval(() => {
      const snapshot = commandSnapshot(command, context.behavior.progressMaxInlineBytes, 'tail');
      runtime.emit({ message: `${command.id} running`, data: snapshot });
    }, context.behavior.progressIntervalMs);
    timers.push(interval);
    await Promise.race(waits);
  } finally {
    for (const timer of timers) clearTimeout(timer);
    runtime.signal.removeEventListener('abort', onAbort);
  }
}

async function runCommand(
  context: CommandContext,
  args: RunArgs,
  runtime: ToolRuntime,
  readerName: string,
): Promise<unknown> {
  if ((args.argv === undefined) === (args.command === undefined)) {
    throw new Error('pass exactly one of argv (preferred) or command');
  }
  const cwd = await context.scope.resolve(args.cwd ?? '.', 'process.exec');
  if (!cwd.ok) return refusedOutput(cwd.denial);
  const requested =
    args.argv !== undefined
      ? ({ mode: 'argv', argv: args.argv, cwd: cwd.real } as const)
      : ({ mode: 'shell', command: args.command as string, cwd: cwd.real } as const);
  const decided = await decideCommand(context.rules, requested);
  if ('denial' in decided) return refusedOutput(decided.denial);
  const prepared = await prepareCommand(context, decided.request, runtime.signal);
  if ('denial' in prepared) return refusedOutput(prepared.denial);
  const request = prepared.request;
  const launcher = await context.launcher();
  const id = newCommandId();
  const directory = join(context.artifacts.root, id);
  const executed = executedArgv(context, request, directory);
  const command = startCommand({
    id,
    argv: executed.argv,
    cwd: request.cwd,
    env: prepared.env,
    ...(args.stdin === undefined ? {} : { stdin: args.stdin }),
    timeoutMs: Math.min(args.timeout_ms ?? context.timeoutMs, context.timeoutMs),
    directory,
    maxOutputBytes: context.maxOutputBytes,
    launcher,
  });
  context.commands.set(id, command);
  await foreground(
    command,
    args.background_after_ms ?? context.behavior.backgroundAfterMs,
    runtime,
    context,
  );
  // A model asking for more inline output than the ceiling gets the ceiling; the rest stays readable.
  const inline = Math.min(args.max_inline_bytes ?? context.maxInlineBytes, context.maxInlineBytes);
  const snapshot = withCapture(commandSnapshot(command, inline), executed.capture);
  const more = snapshot.truncated || command.status === 'running';
  return more
    ? { ...snapshot, hint: `read the full output with ${readerName} { "command_id": "${id}" }` }
    : snapshot;
}

/** `run_command`: runs argv (or, when allowed, a shell line) under the command root. */
export function runCommandTool(context: CommandContext): HostToolDefinition {
  const shell = context.rules.allowShell;
  return {
    key: 'run_command',
    group: 'command',
    build: (nameOf) => ({
      name: 'run_command',
      description: `Run a program with arguments (argv${shell ? ', or a shell command line' : ''}) in a directory under the command root. Returns exit code and up to ${context.maxInlineBytes} bytes of output; the rest is kept: read it with ${nameOf('read_command_output')} or ${nameOf('read_command_output_tail')}.`,
      inputSchema: schema(shell),
      safety: {
        sideEffectLevel: 'process_exec',
        shell,
        filesystem: true,
        workspaceRoot: context.scope.root,
      },
      handler: (args: RunArgs, runtime: ToolRuntime) =>
        runCommand(context, args, runtime, nameOf('read_command_output')),
    }),
  };
}
