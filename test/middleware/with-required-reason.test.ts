import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import { InvalidOptionError } from '../../src/errors.js';
import { composeToolCallers } from '../../src/middleware/compose-tool-callers.js';
import { toolsUseMiddleware } from '../../src/middleware/tools-use-middleware.js';
import {
  NO_REASON_GIVEN,
  type RequiredReasonOptions,
  withRequiredReason,
} from '../../src/middleware/with-required-reason.js';
import type { JsonObject } from '../../src/tools/json.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';
import { closedSchema, fakeCall, recordingNext, unknownToolCall } from './fixtures.js';

function optionError(options: unknown): InvalidOptionError {
  try {
    withRequiredReason(options as RequiredReasonOptions);
  } catch (error) {
    if (InvalidOptionError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an InvalidOptionError');
}

describe('withRequiredReason options', () => {
  it.each([
    ['field', { field: '' }],
    ['description', { description: 3 }],
    ['strip', { strip: 'yes' }],
    ['auditKey', { auditKey: '' }],
    ['auditKey', { auditKey: 'layers' }],
    ['minLength', { minLength: -1 }],
    ['minLength', { minLength: 1.5 }],
    ['onMissing', { onMissing: 'skip' }],
    ['schemaRequired', { schemaRequired: 1 }],
    ['options', 'reason'],
  ])('rejects a bad %s at construction', (option, options) => {
    const error = optionError(options);
    expect(error.option).toBe(option);
    expect(error.message).toMatch(/^withRequiredReason: /);
  });

  it('names the accepted words of onMissing', () => {
    expect(optionError({ onMissing: 'skip' }).message).toBe(
      'withRequiredReason: onMissing must be `reject` or `fill_blank`; got "skip"',
    );
  });
});

describe('withRequiredReason schemaTransform', () => {
  const registry = createToolRegistry([
    { name: 'echo', description: 'echo', inputSchema: closedSchema('text'), handler: () => 'x' },
  ]);

  it('adds a required string parameter with the description, keeping the handler schema', () => {
    const [tool] = toolsUseMiddleware(registry, withRequiredReason().schemaTransform).list();
    expect(tool?.inputSchema.properties).toMatchObject({
      reason: { type: 'string', description: 'Brief one-line reason for invoking this tool' },
    });
    expect(tool?.inputSchema.required).toEqual(['text', 'reason']);
    expect(tool?.handlerSchema).toEqual(closedSchema('text'));
  });

  it('leaves the field out of required with schemaRequired false and uses a custom field', () => {
    const { schemaTransform } = withRequiredReason({ field: 'why', schemaRequired: false });
    const [tool] = toolsUseMiddleware(registry, schemaTransform).list();
    expect(Object.keys(tool?.inputSchema.properties as object)).toEqual(['text', 'why']);
    expect(tool?.inputSchema.required).toEqual(['text']);
  });

  it('is idempotent', () => {
    const { schemaTransform } = withRequiredReason();
    const once = toolsUseMiddleware(registry, schemaTransform);
    const twice = toolsUseMiddleware(once, schemaTransform);
    expect(twice.list()[0]?.inputSchema).toEqual(once.list()[0]?.inputSchema);
  });
});

describe('withRequiredReason caller', () => {
  it('records the trimmed reason on audit.summary and strips it before next', async () => {
    const next = recordingNext();
    const call = fakeCall({ toolArgs: { text: 'hi', reason: '  find the bug ' } });
    const result = await withRequiredReason().caller(call, next);
    expect(next.calls[0]?.toolArgs).toEqual({ text: 'hi' });
    expect(result.audit).toEqual({
      summary: 'find the bug',
      layers: [{ name: 'with_required_reason', status: 'ok' }],
    });
    expect(result.ok).toBe(true);
  });

  it('keeps the field with strip false and records under a custom audit key', async () => {
    const next = recordingNext();
    const call = fakeCall({ toolArgs: { text: 'hi', reason: 'why' } });
    const result = await withRequiredReason({ strip: false, auditKey: 'why' }).caller(call, next);
    expect(next.calls[0]).toBe(call);
    expect(result.audit?.why).toBe('why');
    expect(result.audit?.summary).toBeUndefined();
  });

  it('rejects a missing reason with schema_violation and never calls next', async () => {
    const next = recordingNext();
    const call = fakeCall({ toolName: 'deploy', callId: 'c9', toolArgs: { text: 'hi' } });
    const result = await withRequiredReason().caller(call, next);
    expect(next.calls).toHaveLength(0);
    expect(result).toMatchObject({
      ok: false,
      status: 'error',
      errorCategory: 'schema_violation',
      toolCallId: 'c9',
      executor: null,
      error:
        'withRequiredReason: tool `deploy` was invoked without a `reason` (required by middleware)',
    });
    expect(result.observation).toContain('[blocked: deploy — error]');
    expect(result.audit?.layers).toEqual([{ name: 'with_required_reason', status: 'rejected' }]);
  });

  it.each([
    ['a blank string', '   '],
    ['a number', 42],
    ['null', null],
  ])('counts %s as no reason', async (_label, reason) => {
    const next = recordingNext();
    const call = fakeCall({ toolArgs: { reason } as JsonObject });
    const result = await withRequiredReason().caller(call, next);
    expect(result.errorCategory).toBe('schema_violation');
  });

  it('measures minLength in code points after trimming', async () => {
    const { caller } = withRequiredReason({ minLength: 3 });
    const short = await caller(fakeCall({ toolArgs: { reason: ' ab ' } }), recordingNext());
    expect(short.errorCategory).toBe('schema_violation');
    // Two emoji are four UTF-16 units but two code points.
    const emoji = await withRequiredReason({ minLength: 4 }).caller(
      fakeCall({ toolArgs: { reason: '😀😀' } }),
      recordingNext(),
    );
    expect(emoji.errorCategory).toBe('schema_violation');
    const enough = await caller(fakeCall({ toolArgs: { reason: 'abc' } }), recordingNext());
    expect(enough.ok).toBe(true);
  });

  it('accepts an empty reason with minLength 0', async () => {
    const result = await withRequiredReason({ minLength: 0 }).caller(
      fakeCall({ toolArgs: {} }),
      recordingNext(),
    );
    expect(result.audit?.summary).toBe('');
    expect(result.audit?.layers?.[0]?.status).toBe('ok');
  });

  it('lets a call without a reason through with fill_blank, stripped and marked', async () => {
    const next = recordingNext();
    const call = fakeCall({ toolArgs: { text: 'hi', reason: '' } });
    const result = await withRequiredReason({ onMissing: 'fill_blank' }).caller(call, next);
    expect(next.calls[0]?.toolArgs).toEqual({ text: 'hi' });
    expect(result.ok).toBe(true);
    expect(result.audit?.summary).toBe(NO_REASON_GIVEN);
    expect(result.audit?.layers).toEqual([{ name: 'with_required_reason', status: 'fill_blank' }]);
  });

  it('passes a call to an unknown tool through untouched and unrecorded', async () => {
    const next = recordingNext();
    const call = unknownToolCall({ toolArgs: {} });
    const result = await withRequiredReason().caller(call, next);
    expect(next.calls[0]).toBe(call);
    expect(result.audit).toBeUndefined();
  });

  it('returns a named inner function', () => {
    expect(withRequiredReason().caller.name).toBe('with_required_reason');
  });
});

describe('withRequiredReason through a dispatcher', () => {
  function setup(options: RequiredReasonOptions = {}, transform = true) {
    const seen: JsonObject[] = [];
    const base = createToolRegistry([
      {
        name: 'echo',
        description: 'echo',
        inputSchema: closedSchema('text'),
        safety: { readOnly: true },
        handler: (args: JsonObject) => {
          seen.push(args);
          return args.text;
        },
      },
    ]);
    const reason = withRequiredReason(options);
    const registry = transform ? toolsUseMiddleware(base, reason.schemaTransform) : base;
    const dispatcher = createDispatcher({ registry, caller: composeToolCallers([reason.caller]) });
    return { dispatcher, seen, registry };
  }

  it('runs a call whose reason the schema requires and the layer strips (the gotcha cannot happen)', async () => {
    const { dispatcher, seen, registry } = setup();
    expect(registry.modelDefinitions()[0]?.inputSchema.required).toEqual(['text', 'reason']);
    const result = await dispatcher.dispatch({
      id: 'c1',
      name: 'echo',
      arguments: '{"text":"hi","reason":"say hi"}',
    });
    expect(result).toMatchObject({ ok: true, status: 'ok', result: 'hi', toolCallId: 'c1' });
    expect(result.audit?.summary).toBe('say hi');
    expect(seen).toEqual([{ text: 'hi' }]);
  });

  it('still refuses other schema violations once the reason is stripped', async () => {
    const { dispatcher, seen } = setup();
    const result = await dispatcher.dispatch({
      name: 'echo',
      arguments: '{"text":5,"reason":"why"}',
    });
    expect(result.status).toBe('schema_violation');
    expect(seen).toEqual([]);
  });

  it('answers a missing reason itself, before the tool runs', async () => {
    const { dispatcher, seen } = setup();
    const result = await dispatcher.dispatch({ name: 'echo', arguments: '{"text":"hi"}' });
    expect(result).toMatchObject({ status: 'error', errorCategory: 'schema_violation' });
    expect(result.error).toContain('without a `reason`');
    expect(seen).toEqual([]);
  });

  it('runs a fill_blank call that omits a schema-required reason', async () => {
    const { dispatcher, seen } = setup({ onMissing: 'fill_blank' });
    const result = await dispatcher.dispatch({ name: 'echo', arguments: '{"text":"hi"}' });
    expect(result.ok).toBe(true);
    expect(result.audit?.summary).toBe(NO_REASON_GIVEN);
    expect(seen).toEqual([{ text: 'hi' }]);
  });

  it('leaves a schema-required reason to the executor when it does not strip', async () => {
    const { dispatcher, seen } = setup({ onMissing: 'fill_blank', strip: false });
    const result = await dispatcher.dispatch({ name: 'echo', arguments: '{"text":"hi"}' });
    expect(result.status).toBe('schema_violation');
    expect(result.audit?.layers).toEqual([{ name: 'with_required_reason', status: 'fill_blank' }]);
    expect(seen).toEqual([]);
  });

  it('strips a reason the tool schema never declared (no schema transform)', async () => {
    const { dispatcher, seen } = setup({}, false);
    const result = await dispatcher.dispatch({
      name: 'echo',
      arguments: '{"text":"hi","reason":"why"}',
    });
    expect(result.ok).toBe(true);
    expect(seen).toEqual([{ text: 'hi' }]);
  });
});
