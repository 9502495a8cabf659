import { refusedOutput } from './host-refusal.js';
import type { HostToolDefinition } from './host-tool-set.js';
import { openScoped } from './open-scoped.js';
import { looksBinary, readBounded } from './read-bounded.js';
import { type ReadContext, readSafety } from './read-context.js';

interface ReadFileArgs {
  readonly path: string;
  readonly start_line?: number;
  readonly end_line?: number;
  readonly offset?: number;
  readonly length?: number;
}

/** What `read_file` returns. */
export interface ReadFileResult {
  readonly path: string;
  readonly content: string;
  readonly size: number;
  /** 1-based first and last line returned (line mode only). */
  readonly start_line?: number;
  readonly end_line?: number;
  readonly total_lines?: number;
  readonly offset?: number;
  readonly truncated: boolean;
  readonly binary: boolean;
}

const SCHEMA = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'File path relative to the root.' },
    start_line: { type: 'integer', minimum: 1, description: 'First line (1-based).' },
    end_line: { type: 'integer', minimum: 1, description: 'Last line, inclusive.' },
    offset: { type: 'integer', minimum: 0, description: 'Byte offset (byte mode).' },
    length: { type: 'integer', minimum: 1, description: 'Bytes to read (byte mode).' },
  },
  required: ['path'],
  additionalProperties: false,
} as const;

async function readFile(context: ReadContext, args: ReadFileArgs): Promise<unknown> {
  const opened = await openScoped(context.scope, args.path, { capability: 'filesystem.read' });
  if (!opened.ok) return refusedOutput(opened.denial);
  try {
    const path = opened.path.relative;
    if (args.offset !== undefined || args.length !== undefined) {
      const length = Math.min(args.length ?? context.maxReadBytes, context.maxReadBytes);
      const read = await readBounded(opened.handle, args.offset ?? 0, length, path);
      const binary = looksBinary(read.bytes);
      return {
        path,
        content: binary ? '' : read.bytes.toString('utf8'),
        size: read.size,
        offset: args.offset ?? 0,
        truncated: read.truncated,
        binary,
      } satisfies ReadFileResult;
    }
    const read = await readBounded(opened.handle, 0, context.maxFileBytes, path);
    if (looksBinary(read.bytes)) {
      return { path, content: '', size: read.size, truncated: true, binary: true };
    }
    const lines = read.bytes.toString('utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    const first = args.start_line ?? 1;
    const last = Math.min(args.end_line ?? lines.length, lines.length);
    let content = '';
    let end = first - 1;
    let clipped = false;
    for (let index = first - 1; index < last; index += 1) {
      const line = `${lines[index]}\n`;
      if (Buffer.byteLength(content) + Buffer.byteLength(line) > context.maxReadBytes) {
        clipped = true;
        break;
      }
      content += line;
      end = index + 1;
    }
    return {
      path,
      content,
      size: read.size,
      start_line: first,
      end_line: end,
      total_lines: lines.length,
      truncated: clipped || end < lines.length || read.truncated,
      binary: false,
    } satisfies ReadFileResult;
  } finally {
    await opened.handle.close();
  }
}

/** `read_file`: a line range (default the whole file) or a byte range, at most `maxReadBytes`. */
export function readFileTool(context: ReadContext): HostToolDefinition {
  return {
    key: 'read_file',
    group: 'read',
    build: (nameOf) => ({
      name: 'read_file',
      description: `Read a text file under the root: a line range (start_line..end_line) or a byte range (offset, length); at most ${context.maxReadBytes} bytes per call. For the end of a long file use ${nameOf('read_file_tail')}.`,
      inputSchema: SCHEMA,
      safety: readSafety(context.scope),
      resourceParams: ['path'],
      handler: (args: ReadFileArgs) => readFile(context, args),
    }),
  };
}
