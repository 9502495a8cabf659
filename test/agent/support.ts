import { createToolRegistry } from '../../src/index.js';
import { recordingTool } from '../../src/testing/index.js';

/**
 * The tools of the end-to-end agent tests: `read` (read-only, so it starts while the model still
 * streams; answers `text of <path>`) and `write` (writes, so it waits for the end of the response).
 */
export function readWriteTools() {
  const read = recordingTool({ name: 'read' }).respondsWith((call) => `text of ${call.args.path}`);
  const write = recordingTool({ name: 'write', safety: { sideEffectLevel: 'workspace_write' } });
  return { read, write, registry: createToolRegistry([read.tool, write.tool]) };
}
