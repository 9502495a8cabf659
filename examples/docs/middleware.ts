// docs/middleware.md: the governance stack, a receipt log alone, and the layers composed by hand.

import type { ModelClient, ToolRegistry } from 'switchyard';
import type { ConsentPrompt } from 'switchyard/middleware';
import type { AnyTool, JsonObject } from 'switchyard/tools';

declare const registry: ToolRegistry;
declare const tools: readonly AnyTool[];
declare const ui: { confirm(question: string): Promise<boolean> };
declare const ask: ConsentPrompt;
declare const shadowTools: readonly string[]; // names of the tools to preview, not run
declare function dropSecrets(args: JsonObject): JsonObject;
declare const model: ModelClient;

// #region governance-stack
import { createDispatcher, governanceStack, toolsUseMiddleware } from 'switchyard';

const stack = governanceStack({
  audit: { sink: 'local', redact: ['token'] },
  telemetry: 'otel',
  scope: { stage: 'research', sideEffectLevel: 'read_only' },
  reason: true,
  consent: async (call) => ui.confirm(`Run ${call.toolName}?`),
  rateLimit: { maxCalls: 500, perTool: { search: 50 } },
});
const dispatcher = createDispatcher({
  registry: stack.schemaTransform ? toolsUseMiddleware(registry, stack.schemaTransform) : registry,
  caller: stack.caller,
});
// stack.layers: ['with_audit_log', 'with_telemetry', 'with_scoped_executor', 'with_required_reason', 'with_consent', 'with_rate_limit']
await stack.flush(); // resolves once every receipt so far is in its log (the logs stay open)
await stack.close(); // flushes telemetry, closes the receipt logs

// #endregion governance-stack

// #region audit-log
import { composeToolCallers } from 'switchyard';
import { withAuditLog, withConsent } from 'switchyard/middleware';

const audit = withAuditLog({ sink: 'local', redact: ['token'], directory: '.switchyard/receipts' });
const audited = createDispatcher({
  registry,
  caller: composeToolCallers([audit, withConsent(ask)]),
});
// …
await audit.close();

// #endregion audit-log

// #region composed
import { createToolRegistry } from 'switchyard';
import {
  withBudget,
  withDryRun,
  withIdempotency,
  withRateLimit,
  withRedaction,
  withRequiredReason,
  withScopedExecutor,
  withSummary,
  withTimeout,
} from 'switchyard/middleware';

const reason = withRequiredReason();
const composed = createDispatcher({
  // The model sees a required `reason` parameter on every tool.
  registry: toolsUseMiddleware(createToolRegistry(tools), reason.schemaTransform),
  caller: composeToolCallers([
    withSummary((call, result) => `${call.toolName}: ${result.status}`), // outermost: sees everything
    withScopedExecutor({ stage: 'research', allowedTools: ['search', 'read_file'] }),
    withConsent(async (call) => ui.confirm(`Run ${call.toolName}?`)),
    reason.caller,
    withRedaction(({ phase, args }) => (phase === 'in' ? { args: dropSecrets(args) } : undefined)),
    withIdempotency((call) => `${call.toolName}:${JSON.stringify(call.toolArgs)}`),
    withTimeout({ maxMs: 30_000, hard: true }),
    withBudget({ maxUsd: 5, perTool: { search: { maxUsd: 1 } } }), // dollars the tools report
    withRateLimit({ maxCalls: 200, perTool: { search: 20 } }),
    withDryRun({ only: shadowTools }), // innermost: the audit sees what was attempted
  ]),
});
const result = await composed.dispatch({
  id: 'call_1',
  name: 'search',
  arguments: '{"q":"rate limiter","reason":"find the limiter"}',
});
console.log(result.audit?.layers); // [{ name: 'with_rate_limit', … }, …, { name: 'with_summary', status: 'ok' }] — innermost first

// #endregion composed

// #region token-budget
import { agentLoop } from 'switchyard';

// One layer per run: its budget is this run's. Calls held until the model's response ended carry
// their share of the turn's tokens; eager read-only calls carry none and count zero.
const run = await agentLoop({
  task: 'find and summarise the rate limiter',
  model,
  tools: registry,
  toolCaller: withBudget({
    maxUsd: 2,
    maxTokens: 200_000,
    perTool: { web_search: { maxCalls: 20, maxTokens: 50_000 } },
  }),
});
console.log(run.results.map((result) => [result.status, result.usage?.modelTokens]));

// #endregion token-budget

export { audited, dispatcher };
