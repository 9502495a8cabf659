import type { ArtifactRef, ContentBlock } from './result.js';

const TOOL_OUTPUT = Symbol.for('switchyard.toolOutput');

/** A handler's return value with more than a plain value: content blocks, or a reported error. */
export interface ToolOutput {
  readonly [TOOL_OUTPUT]: true;
  /** The structured value (the result's `result`). */
  readonly value: unknown;
  /** Model-facing content; a text block of the rendered value when left out. */
  readonly content?: readonly ContentBlock[];
  /** The tool ran but reports failure (MCP `isError`): the result is `ok: false`, `tool_error`. */
  readonly isError?: boolean;
  readonly artifacts?: readonly ArtifactRef[];
}

/**
 * Wraps a handler's return value with content blocks or an error flag.
 *
 * @example
 * handler: async ({ path }) => toolOutput({ value: null, isError: true, content: [{ type: 'text', text: `no such file: ${path}` }] })
 */
export function toolOutput(output: Omit<ToolOutput, typeof TOOL_OUTPUT>): ToolOutput {
  return { ...output, [TOOL_OUTPUT]: true };
}

/** True when `value` is a `toolOutput(…)`: a handler's result with content blocks for the model. */
export function isToolOutput(value: unknown): value is ToolOutput {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[TOOL_OUTPUT] === true
  );
}
