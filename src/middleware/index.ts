export { type AuditData, type AuditLayer, mergeAudit } from '../dispatch/audit.js';
export type { Next, ToolCaller } from '../dispatch/tool-caller.js';
export {
  type AnthropicBinderOptions,
  createAnthropicBinder,
} from './binder/anthropic-binder.js';
export { type BudgetTimer, setTimeoutTimer } from './binder/binder-budget.js';
export { BinderFailureError } from './binder/binder-failure-error.js';
export {
  type BinderFailureMode,
  DEFAULT_INTENT_DESCRIPTION,
  type NaturalLanguageExecutorOptions,
} from './binder/binder-options.js';
export {
  type BinderPromptInput,
  DEFAULT_BINDER_SYSTEM,
  renderBinderPrompt,
} from './binder/binder-prompt.js';
export type {
  BinderAudit,
  BinderFn,
  BinderRequest,
  BinderResponse,
  BinderSkipReason,
  BinderStatus,
} from './binder/binder-types.js';
export { createOpenAIBinder, type OpenAIBinderOptions } from './binder/openai-binder.js';
export { composeToolCallers, defaultToolCaller } from './compose-tool-callers.js';
export { toolInjectParam } from './tool-inject-param.js';
export { type ToolTransform, toolsUseMiddleware } from './tools-use-middleware.js';
export {
  type NaturalLanguageExecutor,
  naturalLanguageExecutorMiddleware,
  naturalLanguageExecutorSchemaTransform,
  withNaturalLanguageExecutor,
} from './with-natural-language-executor.js';
