import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import type { ToolCallEvent } from '../../src/dispatch/events.js';
import { composeToolCallers } from '../../src/middleware/compose-tool-callers.js';
import { toolsUseMiddleware } from '../../src/middleware/tools-use-middleware.js';
import { withConsent } from '../../src/middleware/with-consent.js';
import { withDryRun } from '../../src/middleware/with-dry-run.js';
import { withHandoffArtifact } from '../../src/middleware/with-handoff-artifact.js';
import { withIdempotency } from '../../src/middleware/with-idempotency.js';
import { withRateLimit } from '../../src/middleware/with-rate-limit.js';
import { withRedaction } from '../../src/middleware/with-redaction.js';
import { withRequiredReason } from '../../src/middleware/with-required-reason.js';
import { withScopedExecutor } from '../../src/middleware/with-scoped-executor.js';
import { withSummary } from '../../src/middleware/with-summary.js';
import { withTimeout } from '../../src/middleware/with-timeout.js';
import type { JsonObject } from '../../src/tools/json.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';
import { closedSchema } from './fixtures.js';

/** The governance stack of the docs' recipe, outermost first, over three file tools. */
function governedDispatcher(options: { maxCalls?: number; deny?: string[] } = {}) {
  const ran: string[] = [];
  const asked: string[] = [];
  const tool = (name: string, safety: object) => ({
    name,
    description: name,
    inputSchema: closedSchema('path'),
    safety,
    handler: (args: JsonObject) => {
      ran.push(name);
      return name === 'write_file'
        ? { written: args.path, handoff: { targetPersona: 'reviewer' } }
        : 'ok';
    },
  });
  const reason = withRequiredReason();
  const registry = toolsUseMiddleware(
    createToolRegistry([
      tool('read_file', { readOnly: true }),
      tool('write_file', { sideEffectLevel: 'workspace_write', filesystem: true }),
      tool('delete_file', { sideEffectLevel: 'workspace_write', destructive: true }),
    ]),
    reason.schemaTransform,
  );
  const caller = composeToolCallers([
    withSummary((call, result) => `${call.toolName}: ${result.status}`),
    withScopedExecutor({ stage: 'work', allowedTools: ['read_file', 'write_file', 'delete_file'] }),
    withConsent((call) => {
      asked.push(call.toolName);
      return !(options.deny ?? []).includes(call.toolName);
    }),
    reason.caller,
    withRedaction(({ phase, args }) => (phase === 'in' ? { args } : {})),
    withHandoffArtifact(),
    withIdempotency((call) => `${call.toolName}:${JSON.stringify(call.toolArgs)}`),
    withTimeout({ maxMs: 10_000 }),
    withRateLimit({ maxCalls: options.maxCalls ?? 10 }),
    withDryRun({ only: ['delete_file'] }),
  ]);
  const dispatcher = createDispatcher({ registry, caller });
  const call = (name: string, path: string, id = 'c1') =>
    dispatcher.dispatch({ id, name, arguments: JSON.stringify({ path, reason: `touch ${path}` }) });
  return { dispatcher, call, ran, asked };
}

const names = (result: { audit?: { layers?: readonly { name: string }[] } }) =>
  result.audit?.layers?.map((layer) => layer.name);

describe('the governance stack through a dispatcher', () => {
  it('records every layer innermost first on a call that runs', async () => {
    const { call, ran } = governedDispatcher();
    const result = await call('write_file', 'a.txt');
    expect(ran).toEqual(['write_file']);
    expect(result.ok).toBe(true);
    expect(names(result)).toEqual([
      'with_rate_limit',
      'with_timeout',
      'with_idempotency',
      'with_handoff_artifact',
      'with_redaction',
      'with_required_reason',
      'with_consent',
      'with_scoped_executor',
      'with_summary',
    ]);
    // The outermost writer of a key wins: the host summary replaces the model's reason.
    expect(result.audit?.summary).toBe('write_file: ok');
    expect(result.audit).toMatchObject({
      kind: 'handoff',
      consent: { decision: 'approved' },
      scope: { stage: 'work' },
      metadata: { redactedIn: [], redactedOut: [] },
      handoff: { targetPersona: 'reviewer' },
    });
  });

  it('lets the outer layers see and decorate what an inner layer short-circuited', async () => {
    const { call, ran } = governedDispatcher({ maxCalls: 1 });
    await call('read_file', 'a.txt');
    const blocked = await call('read_file', 'b.txt', 'c2');
    expect(ran).toEqual(['read_file']);
    expect(blocked).toMatchObject({ ok: false, errorCategory: 'rate_limited', toolCallId: 'c2' });
    expect(blocked.audit?.layers?.[0]).toMatchObject({
      name: 'with_rate_limit',
      status: 'blocked',
    });
    // read_file is read-only: the default consent policy does not ask, so no consent entry.
    expect(names(blocked)?.slice(1)).toEqual([
      'with_timeout',
      'with_idempotency',
      'with_redaction',
      'with_required_reason',
      'with_scoped_executor',
      'with_summary',
    ]);
    expect(blocked.audit?.summary).toBe('read_file: error');
  });

  it('shows a dry-run preview to every outer layer, and the tool never runs', async () => {
    const { call, ran, asked } = governedDispatcher();
    const result = await call('delete_file', 'a.txt');
    expect(ran).toEqual([]);
    expect(asked).toEqual(['delete_file']);
    expect(result).toMatchObject({ ok: true, status: 'dry_run' });
    expect(result.audit?.kind).toBe('think');
    expect(result.audit?.layers?.[0]).toEqual({ name: 'with_dry_run', status: 'preview' });
    expect(result.audit?.summary).toBe('delete_file: dry_run');
  });

  it('hides the inner layers of a call an outer layer refused', async () => {
    const { call, ran, asked } = governedDispatcher({ deny: ['write_file'] });
    const denied = await call('write_file', 'a.txt');
    expect(ran).toEqual([]);
    expect(denied.errorCategory).toBe('consent_denied');
    expect(names(denied)).toEqual(['with_consent', 'with_scoped_executor', 'with_summary']);
    const outside = await governedDispatcher().dispatcher.dispatch({
      name: 'deploy',
      arguments: '{}',
    });
    expect(outside.status).toBe('scope_violation');
    expect(names(outside)).toEqual(['with_scoped_executor', 'with_summary']);
    expect(asked).toEqual(['write_file']);
  });

  it('reuses a result for a repeated call, and the audit says so', async () => {
    const { call, ran } = governedDispatcher();
    await call('read_file', 'a.txt', 'c1');
    const again = await call('read_file', 'a.txt', 'c2');
    expect(ran).toEqual(['read_file']);
    expect(again.toolCallId).toBe('c2');
    expect(again.audit?.layers?.find((layer) => layer.name === 'with_idempotency')).toMatchObject({
      status: 'hit',
      sourceCallId: 'c1',
    });
    // The rate limit sits inside the idempotency layer: a reused result spends no budget.
    expect(names(again)?.[0]).toBe('with_idempotency');
  });

  it('emits the merged audit as a tool_call_audit event', async () => {
    const { dispatcher, call } = governedDispatcher();
    const events: ToolCallEvent[] = [];
    const subscription = dispatcher.events$.subscribe((event) => events.push(event));
    const result = await call('read_file', 'a.txt');
    subscription.unsubscribe();
    const audit = events.find((event) => event.type === 'tool_call_audit');
    expect(audit).toMatchObject({ toolCallId: 'c1', audit: result.audit });
  });
});
