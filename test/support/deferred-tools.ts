import { defineTool } from '../../src/index.js';

/** The `{ id }` schema of the deferred tools below. */
export const ID_SCHEMA = { type: 'object', properties: { id: { type: 'string' } } } as const;

/** A tool kept out of view until a search finds it (`deferLoading`); it answers 1. */
export function deferredTool(
  name: string,
  description: string,
  extra: { readonly namespace?: string; readonly foreignName?: boolean } = {},
) {
  return defineTool({
    name,
    description,
    inputSchema: ID_SCHEMA,
    deferLoading: true,
    handler: () => 1,
    ...extra,
  });
}
