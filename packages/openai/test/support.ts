import type { ToolCallResult, ToolRegistry } from 'switchyard';
import { createToolRegistry, defineTool } from 'switchyard';
import { createNativeDetector, type DetectorEvent } from 'switchyard/detectors';
import type { ToolCallDelta } from 'switchyard/streams';

const pathSchema = {
  type: 'object',
  properties: { path: { type: 'string' } },
  required: ['path'],
} as const;

/**
 * The tools the OpenAI adapter tests advertise: `read`, `write` and the MCP-style `fs.stat`,
 * whose provider-safe alias is `fs_stat`.
 */
export function openAITestRegistry(): ToolRegistry {
  const tool = (name: string, extra: object = {}) =>
    defineTool<{ path: string }, string>({
      name,
      description: `${name} a file`,
      inputSchema: pathSchema,
      handler: ({ path }) => path,
      ...extra,
    });
  return createToolRegistry([tool('read'), tool('write'), tool('fs.stat', { foreignName: true })]);
}

/** Everything an async iterable yields, in order. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

/** Feeds deltas into a native detector for `registry` (aliases accepted); returns its events. */
export function detect(deltas: readonly ToolCallDelta[], registry: ToolRegistry): DetectorEvent[] {
  const events: DetectorEvent[] = [];
  const detector = createNativeDetector({
    toolNames: registry.names(),
    resolveName: (name) => registry.resolve(name)?.name,
    onEvent: (event) => events.push(event),
    coalesceMs: false,
  });
  for (const delta of deltas) detector.push(delta);
  detector.end();
  return events;
}

/** The rejection of `promise`, failing the test when it resolves instead. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject, but it resolved');
}

/** A successful inline result for `read`, with these fields changed. */
export function toolResult(fields: Partial<ToolCallResult>): ToolCallResult {
  return {
    ok: true,
    status: 'ok',
    toolName: 'read',
    toolCallId: 'call_1',
    arguments: {},
    result: null,
    renderedResult: '',
    observation: '',
    error: null,
    errorCategory: null,
    executor: 'inline',
    executionDurationMs: 1,
    emitOrder: 0,
    ...fields,
  };
}
