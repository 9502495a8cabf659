import { refusedOutput } from './host-refusal.js';
import type { HostToolDefinition } from './host-tool-set.js';
import { openScoped } from './open-scoped.js';
import { looksBinary, readBounded } from './read-bounded.js';
import { type ReadContext, readSafety } from './read-context.js';

interface TailArgs {
  readonly path: string;
  readonly lines?: number;
}

const SCHEMA = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'File path relative to the root.' },
    lines: {
      type: 'integer',
      minimum: 1,
      maximum: 10_000,
      description: 'Lines to return (default 50).',
    },
  },
  required: ['path'],
  additionalProperties: false,
} as const;

async function readTail(context: ReadContext, args: TailArgs): Promise<unknown> {
  const opened = await openScoped(context.scope, args.path, { capability: 'filesystem.read' });
  if (!opened.ok) return refusedOutput(opened.denial);
  try {
    const path = opened.path.relative;
    const info = await opened.handle.stat();
    const start = Math.max(0, info.size - context.maxReadBytes);
    const read = await readBounded(opened.handle, start, context.maxReadBytes, path);
    if (looksBinary(read.bytes)) return { path, content: '', size: read.size, binary: true };
    const lines = read.bytes.toString('utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    // A window that starts mid-file may start mid-line: drop the partial first line.
    if (start > 0) lines.shift();
    const wanted = args.lines ?? 50;
    const kept = lines.slice(-wanted);
    return {
      path,
      content: kept.length === 0 ? '' : `${kept.join('\n')}\n`,
      size: read.size,
      lines: kept.length,
      truncated: kept.length < lines.length || start > 0,
      binary: false,
    };
  } finally {
    await opened.handle.close();
  }
}

/** `read_file_tail`: the last `lines` lines (default 50) of a file, within `maxReadBytes`. */
export function readFileTailTool(context: ReadContext): HostToolDefinition {
  return {
    key: 'read_file_tail',
    group: 'read',
    build: () => ({
      name: 'read_file_tail',
      description: 'Read the last lines of a text file under the root (default 50 lines).',
      inputSchema: SCHEMA,
      safety: readSafety(context.scope),
      resourceParams: ['path'],
      handler: (args: TailArgs) => readTail(context, args),
    }),
  };
}
