import { createHash } from 'node:crypto';
import { refusedOutput } from './host-refusal.js';
import type { HostToolDefinition } from './host-tool-set.js';
import { openScoped } from './open-scoped.js';
import { readBounded } from './read-bounded.js';
import type { RootScope } from './root-scope.js';
import { runProgram } from './run-program.js';
import { meanConfidence, parseTesseractTsv } from './tesseract-tsv.js';

/** Settings of `vision_ocr`. */
export interface OcrSettings {
  readonly scope: RootScope;
  /** The tesseract program. Default `tesseract` on PATH. */
  readonly tesseract: string;
  readonly timeoutMs: number;
  readonly maxImageBytes: number;
}

interface OcrArgs {
  readonly image: string;
  readonly options?: { readonly language?: string; readonly page_segmentation_mode?: number };
}

const versions = new Map<string, Promise<string>>();

function tesseractVersion(settings: OcrSettings): Promise<string> {
  let version = versions.get(settings.tesseract);
  if (version === undefined) {
    version = runProgram({
      program: settings.tesseract,
      args: ['--version'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      timeoutMs: settings.timeoutMs,
      maxBytes: 4096,
    }).then(
      (output) =>
        /tesseract\s+v?([\w.-]+)/i.exec(`${output.stdout}${output.stderr}`)?.[1] ?? 'unknown',
      () => 'unknown',
    );
    versions.set(settings.tesseract, version);
  }
  return version;
}

async function ocr(settings: OcrSettings, args: OcrArgs, signal: AbortSignal): Promise<unknown> {
  const opened = await openScoped(settings.scope, args.image, { capability: 'filesystem.read' });
  if (!opened.ok) return refusedOutput(opened.denial);
  let image: Buffer;
  try {
    const read = await readBounded(opened.handle, 0, settings.maxImageBytes, opened.path.relative);
    if (read.truncated) throw new Error(`image larger than ${settings.maxImageBytes} bytes`);
    image = read.bytes;
  } finally {
    await opened.handle.close();
  }
  const language = args.options?.language ?? 'eng';
  const mode = args.options?.page_segmentation_mode ?? 3;
  const started = Date.now();
  // The checked bytes go to tesseract on stdin: it never opens a path itself.
  const output = await runProgram({
    program: settings.tesseract,
    args: ['stdin', 'stdout', '-l', language, '--psm', String(mode), 'tsv'],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', OMP_THREAD_LIMIT: '1' },
    stdin: image,
    timeoutMs: settings.timeoutMs,
    maxBytes: 16 * 1024 * 1024,
    signal,
  });
  if (output.timedOut) throw new Error(`tesseract timed out after ${settings.timeoutMs} ms`);
  if (output.exitCode !== 0)
    throw new Error(`tesseract failed: ${output.stderr.trim().slice(0, 500)}`);
  const structure = parseTesseractTsv(output.stdout);
  return {
    _type: 'structured_text',
    ...structure,
    source: {
      path: opened.path.relative,
      bytes: image.length,
      sha256: createHash('sha256').update(image).digest('hex'),
    },
    backend: {
      name: 'tesseract',
      version: await tesseractVersion(settings),
      language,
      page_segmentation_mode: mode,
    },
    stats: {
      blocks: structure.blocks.length,
      lines: structure.lines.length,
      tokens: structure.tokens.length,
      mean_confidence: meanConfidence(structure.tokens),
      duration_ms: Date.now() - started,
    },
  };
}

const LANGUAGE = '^[a-z_]{3,8}(\\+[a-z_]{3,8})*$';

/**
 * `vision_ocr`: text read from an image under the root by tesseract (its TSV output), as blocks,
 * lines and word tokens with boxes and confidences, plus `source`, `backend` and `stats` metadata.
 */
export function visionOcrTool(settings: OcrSettings): HostToolDefinition {
  return {
    key: 'vision_ocr',
    group: 'stdlib',
    build: () => ({
      name: 'vision_ocr',
      description:
        'Read the text of an image file (PNG, JPEG, TIFF, PNM) under the root: full text plus blocks, lines and word tokens with boxes and confidences.',
      inputSchema: {
        type: 'object',
        properties: {
          image: { type: 'string', description: 'Image path relative to the root.' },
          options: {
            type: 'object',
            properties: {
              language: {
                type: 'string',
                pattern: LANGUAGE,
                description: 'Tesseract language(s), e.g. "eng" (default) or "eng+deu".',
              },
              page_segmentation_mode: { type: 'integer', minimum: 0, maximum: 13 },
            },
            additionalProperties: false,
          },
        },
        required: ['image'],
        additionalProperties: false,
      },
      outputSchema: {
        type: 'object',
        properties: {
          _type: { const: 'structured_text' },
          text: { type: 'string' },
          blocks: { type: 'array' },
          lines: { type: 'array' },
          tokens: { type: 'array' },
          source: { type: 'object' },
          backend: { type: 'object' },
          stats: { type: 'object' },
        },
        required: ['_type', 'text', 'blocks', 'lines', 'tokens', 'source', 'backend', 'stats'],
      },
      safety: {
        sideEffectLevel: 'read_only',
        readOnly: true,
        filesystem: true,
        workspaceRoot: settings.scope.root,
      },
      resourceParams: ['image'],
      handler: (args: OcrArgs, runtime) => ocr(settings, args, runtime.signal),
    }),
  };
}
