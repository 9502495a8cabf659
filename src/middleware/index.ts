export { type AuditData, type AuditLayer, mergeAudit } from '../dispatch/audit.js';
export type { Next, ToolCaller } from '../dispatch/tool-caller.js';
export { composeToolCallers, defaultToolCaller } from './compose-tool-callers.js';
export { toolInjectParam } from './tool-inject-param.js';
export { type ToolTransform, toolsUseMiddleware } from './tools-use-middleware.js';
