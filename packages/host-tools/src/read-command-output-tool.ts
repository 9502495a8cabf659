import { basename, dirname } from 'node:path';
import type { CommandContext } from './command-context.js';
import { type OutputStream, streamPath } from './command-process.js';
import { refusedOutput } from './host-refusal.js';
import type { HostToolDefinition } from './host-tool-set.js';
import { openScoped } from './open-scoped.js';
import { readBounded } from './read-bounded.js';

interface OutputArgs {
  readonly command_id?: string;
  readonly path?: string;
  readonly stream?: OutputStream;
  readonly offset?: number;
  readonly length?: number;
  readonly bytes?: number;
}

const SOURCE = {
  command_id: { type: 'string', maxLength: 100, description: 'The id run_command returned.' },
  path: { type: 'string', description: 'Or: an output_path run_command returned.' },
  stream: {
    type: 'string',
    enum: ['stdout', 'stderr', 'combined'],
    description: 'Default combined.',
  },
};

/** The file to read: a known command's stream, or a path inside the output directory. */
function target(context: CommandContext, args: OutputArgs): { path: string; id?: string } | Error {
  if ((args.command_id === undefined) === (args.path === undefined)) {
    return new Error('pass exactly one of command_id or path');
  }
  if (args.path !== undefined) return { path: args.path };
  const command = context.commands.get(args.command_id as string);
  if (command === undefined)
    return new Error(`unknown command_id ${JSON.stringify(args.command_id)}`);
  return { path: streamPath(command.directory, args.stream ?? 'combined'), id: command.id };
}

async function readOutput(
  context: CommandContext,
  args: OutputArgs,
  tail: boolean,
): Promise<unknown> {
  const found = target(context, args);
  if (found instanceof Error) throw found;
  const opened = await openScoped(context.artifacts, found.path, { capability: 'command.output' });
  if (!opened.ok) return refusedOutput(opened.denial);
  try {
    const size = (await opened.handle.stat()).size;
    const wanted = Math.min(
      tail ? (args.bytes ?? 4000) : (args.length ?? context.maxInlineBytes),
      context.maxInlineBytes,
    );
    const offset = tail ? Math.max(0, size - wanted) : (args.offset ?? 0);
    const read = await readBounded(opened.handle, offset, wanted, opened.path.relative);
    const id = found.id ?? basename(dirname(opened.path.real));
    const running = context.commands.get(id)?.status === 'running';
    return {
      command_id: id,
      content: read.bytes.toString('utf8'),
      offset,
      bytes: read.bytes.length,
      size: read.size,
      eof: !read.truncated && !running,
      running,
    };
  } finally {
    await opened.handle.close();
  }
}

/** `read_command_output`: a byte range of a command's kept output, by command id or output path. */
export function readCommandOutputTool(context: CommandContext): HostToolDefinition {
  return {
    key: 'read_command_output',
    group: 'command',
    build: (nameOf) => ({
      name: 'read_command_output',
      description: `Read a byte range (offset, length; at most ${context.maxInlineBytes} bytes) of the output of a command started by ${nameOf('run_command')}.`,
      inputSchema: {
        type: 'object',
        properties: {
          ...SOURCE,
          offset: { type: 'integer', minimum: 0 },
          length: { type: 'integer', minimum: 1 },
        },
        additionalProperties: false,
      },
      safety: { sideEffectLevel: 'read_only', readOnly: true },
      handler: (args: OutputArgs) => readOutput(context, args, false),
    }),
  };
}

/** `read_command_output_tail`: the last bytes of a command's kept output, no offsets to compute. */
export function readCommandOutputTailTool(context: CommandContext): HostToolDefinition {
  return {
    key: 'read_command_output_tail',
    group: 'command',
    build: (nameOf) => ({
      name: 'read_command_output_tail',
      description: `Read the last bytes (default 4000) of the output of a command started by ${nameOf('run_command')}.`,
      inputSchema: {
        type: 'object',
        properties: { ...SOURCE, bytes: { type: 'integer', minimum: 1 } },
        additionalProperties: false,
      },
      safety: { sideEffectLevel: 'read_only', readOnly: true },
      handler: (args: OutputArgs) => readOutput(context, args, true),
    }),
  };
}
