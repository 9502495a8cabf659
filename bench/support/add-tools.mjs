// The `add` tool that bench/cli-throughput.bench.ts dispatches through `switchyard run --tools`:
// the CLI's built-in tools are the stdlib set, whose output schemas would change what is measured.
import { addTool } from './demo-tools.mjs';

export default [addTool];
