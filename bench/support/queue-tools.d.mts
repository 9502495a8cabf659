import type { AnyToolSpec } from '../../dist/tools/index.js';
export const tools: AnyToolSpec[];
