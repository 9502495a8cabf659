import { writeJson } from '../tools/write-json.js';
import type { ArtifactRef, ContentBlock } from './result.js';

/** How much tool output reaches the model. */
export interface OutputLimits {
  /** Longest rendered result, in characters, before the output becomes an artifact. Default 20 000. */
  readonly maxRenderedChars?: number;
}

/** Keeps outputs that were too large for the model, in full, for the application. */
export interface ArtifactStore {
  /** Keeps the full text of an output that was cut for the model, under `artifact`. */
  put(artifact: ArtifactRef, text: string): void;
}

export const DEFAULT_MAX_RENDERED_CHARS = 20_000;

/**
 * The text of a value as a model reads it: strings as they are, anything else as JSON. A value
 * JSON.stringify cannot write (nested deeper than its recursion reaches, a cycle, a BigInt inside)
 * is written by an iterative writer, with stand-ins such as `"[cycle]"`: never by `String`,
 * which recurses too and gives `[object Object]`. Never throws.
 */
export function renderValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  // Primitives render as JSON does without entering the serializer (most tools return one):
  // a finite number or a boolean reads the same through `String`; NaN and ±Infinity are `null`.
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value === null) return 'null';
  if (typeof value === 'bigint') return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return writeJson(value, { notes: [] });
  }
}

/** Joins the text blocks of model-facing content. */
export function contentText(content: readonly ContentBlock[]): string {
  let text = '';
  for (const block of content) {
    if (block.type === 'text') text += text === '' ? block.text : `\n${block.text}`;
    else if (block.type === 'resource') text += `${text === '' ? '' : '\n'}[resource ${block.uri}]`;
    else text += `${text === '' ? '' : '\n'}[image ${block.mimeType}]`;
  }
  return text;
}

export interface BoundedText {
  readonly text: string;
  readonly artifact: ArtifactRef | null;
}

function unbounded(text: string): BoundedText {
  return { text, artifact: null };
}

/**
 * Bounds a rendered output for the model: past `maxChars` it keeps the head and tail with a note
 * naming the artifact that holds the whole text.
 */
export function boundRendered(
  text: string,
  toolCallId: string,
  maxChars: number,
  store: ArtifactStore | undefined,
): BoundedText {
  if (text.length <= maxChars) return unbounded(text);
  const artifact: ArtifactRef = {
    id: `artifact_${toolCallId}`,
    toolCallId,
    mediaType: 'text/plain',
    length: text.length,
  };
  store?.put(artifact, text);
  const head = Math.floor(maxChars * 0.8);
  const tail = maxChars - head;
  const note = `\n[… output truncated: ${text.length} characters in full, kept as artifact ${artifact.id}; showing the first ${head} and last ${tail} …]\n`;
  return { text: text.slice(0, head) + note + text.slice(text.length - tail), artifact };
}
