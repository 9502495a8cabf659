import type { ModelClient } from 'switchyard';
import { createToolRegistry, type ToolRegistry } from 'switchyard';
import { createNativeDetector, type DetectorEvent } from 'switchyard/detectors';
import type { ModelRequest } from 'switchyard/providers';
import type { ToolCallDelta } from 'switchyard/streams';
import { recordingTool } from 'switchyard/testing';

const PATH_SCHEMA = {
  type: 'object',
  properties: { path: { type: 'string' } },
  required: ['path'],
} as const;

/** `read`, `write` and `search`, plus the MCP-style `fs.stat` (alias `fs_stat` on the wire). */
export function providerRegistry(): ToolRegistry {
  return createToolRegistry([
    recordingTool({ name: 'read', description: 'Read a file', inputSchema: PATH_SCHEMA }).tool,
    recordingTool({ name: 'write', description: 'Write a file', inputSchema: PATH_SCHEMA }).tool,
    recordingTool({ name: 'search', description: 'Search the files' }).tool,
    recordingTool({ name: 'fs.stat', description: 'Stat a path', foreignName: true }).tool,
  ]);
}

/** What one streamed turn produced: every delta, the detector's events, and how it ended. */
export interface TurnOutcome {
  readonly deltas: ToolCallDelta[];
  readonly events: DetectorEvent[];
  /** What the stream rejected with; undefined when it ended normally. */
  readonly error: unknown;
}

/**
 * Streams one turn into a native detector (no coalescing, aliases resolved through the
 * registry) and ends the detector however the stream ends, as the agent loop does.
 */
export async function runTurn(
  model: ModelClient,
  request: ModelRequest,
  registry: ToolRegistry,
  /** Sees each delta after the detector took it, with the events so far. */
  onDelta: (delta: ToolCallDelta, events: readonly DetectorEvent[]) => void = () => {},
): Promise<TurnOutcome> {
  const deltas: ToolCallDelta[] = [];
  const events: DetectorEvent[] = [];
  const detector = createNativeDetector({
    toolNames: registry.names(),
    resolveName: (name) => registry.resolve(name)?.name,
    onEvent: (event) => events.push(event),
    coalesceMs: false,
  });
  let error: unknown;
  try {
    for await (const delta of model.stream(request)) {
      deltas.push(delta);
      detector.push(delta);
      onDelta(delta, events);
    }
  } catch (caught) {
    error = caught;
  } finally {
    detector.end();
  }
  return { deltas, events, error };
}

/** The events of one type, narrowed. */
export function eventsOf<T extends DetectorEvent['type']>(
  events: readonly DetectorEvent[],
  type: T,
): Extract<DetectorEvent, { type: T }>[] {
  return events.filter(
    (event): event is Extract<DetectorEvent, { type: T }> => event.type === type,
  );
}
