import { describe, expect, it, vi } from 'vitest';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import type { ToolCallEvent } from '../../src/dispatch/events.js';
import type { ToolCaller } from '../../src/dispatch/tool-caller.js';
import {
  type BinderFn,
  composeToolCallers,
  type NaturalLanguageExecutorOptions,
  naturalLanguageExecutorMiddleware,
  toolInjectParam,
  toolsUseMiddleware,
} from '../../src/middleware/index.js';
import { deferred } from '../../src/testing/index.js';
import { defineTool } from '../../src/tools/define-tool.js';
import type { JsonObject } from '../../src/tools/json.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';
import { WEATHER_SCHEMA } from '../support/binder-envelope.js';

const PARIS = { city: 'Paris', unit: 'c' };
const neverFires = () => () => {};

function setup(
  options: Partial<NaturalLanguageExecutorOptions> = {},
  layers: { outer?: ToolCaller[]; compose?: boolean } = {},
) {
  const handler = vi.fn((args: JsonObject) => `${String(args.city)}:${String(args.unit)}`);
  const weather = defineTool({
    name: 'get_weather',
    description: 'Current weather in a city',
    inputSchema: WEATHER_SCHEMA,
    handler,
  });
  const binderFn = vi.fn<BinderFn>(async () => ({ data: PARIS }));
  const pair = naturalLanguageExecutorMiddleware({
    provider: 'cerebras',
    model: 'gpt-oss-120b',
    timer: neverFires,
    binderFn,
    ...options,
  });
  const registry = toolsUseMiddleware(createToolRegistry([weather]), pair.schemaTransform);
  const caller =
    layers.compose === false
      ? pair.caller
      : composeToolCallers([...(layers.outer ?? []), pair.caller]);
  const dispatcher = createDispatcher({ registry, caller });
  return { dispatcher, handler, binderFn, registry };
}

describe('withNaturalLanguageExecutor in a dispatcher', () => {
  it('advertises an optional _nl_intent parameter and keeps the handler schema', () => {
    const { registry } = setup();
    const [definition] = registry.modelDefinitions();
    expect(definition!.inputSchema.properties).toHaveProperty('_nl_intent');
    expect(definition!.inputSchema.required).toEqual(['city', 'unit']);
    expect(registry.get('get_weather')!.handlerSchema).toBe(WEATHER_SCHEMA);
  });

  it('runs the handler with the bound arguments when the planner sent only an intent', async () => {
    const { dispatcher, handler, binderFn } = setup();
    const events: ToolCallEvent[] = [];
    dispatcher.events$.subscribe((event) => events.push(event));
    const result = await dispatcher.dispatch({
      id: 'call_7',
      name: 'get_weather',
      arguments: '{"_nl_intent":"weather in Paris, celsius"}',
    });
    expect(binderFn.mock.calls[0]![0].intent).toBe('weather in Paris, celsius');
    expect(binderFn.mock.calls[0]![0].schema).toBe(WEATHER_SCHEMA);
    expect(handler).toHaveBeenCalledTimes(1);
    expect(handler.mock.calls[0]![0]).toEqual(PARIS);
    expect(result).toMatchObject({
      ok: true,
      status: 'ok',
      toolCallId: 'call_7',
      result: 'Paris:c',
    });
    expect(result.arguments).toEqual(PARIS);
    expect(result.audit?.binder).toMatchObject({ status: 'ok', attempts: 1 });
    const audit = events.find((event) => event.type === 'tool_call_audit');
    expect(audit).toMatchObject({ audit: { binder: { status: 'ok' } } });
  });

  it('hands the partial arguments to the binder', async () => {
    const { dispatcher, binderFn } = setup();
    await dispatcher.dispatch({
      name: 'get_weather',
      arguments: { city: 'Paris', _nl_intent: 'in celsius' },
    });
    expect(binderFn.mock.calls[0]![0].partialArgs).toEqual({ city: 'Paris' });
  });

  it('never runs the handler with a binding that fails the schema (passthrough: the executor refuses)', async () => {
    const { dispatcher, handler } = setup({
      binderFn: async () => ({ data: { city: 'Paris', unit: 'kelvin' } }),
    });
    const result = await dispatcher.dispatch({
      name: 'get_weather',
      arguments: { _nl_intent: 'Paris in kelvin' },
    });
    expect(handler).not.toHaveBeenCalled();
    expect(result.ok).toBe(false);
    expect(result.status).toBe('schema_violation');
    expect(result.arguments).toEqual({});
    expect(result.audit?.binder).toMatchObject({ status: 'schema_error', attempts: 1 });
  });

  it('blocks the call with schema_violation when the binding fails and onFailure is reject', async () => {
    const { dispatcher, handler } = setup({
      binderFn: async () => ({ text: 'sorry' }),
      onFailure: 'reject',
    });
    const result = await dispatcher.dispatch({
      name: 'get_weather',
      arguments: { _nl_intent: 'Paris' },
    });
    expect(handler).not.toHaveBeenCalled();
    expect(result.errorCategory).toBe('schema_violation');
    expect(result.observation).toMatch(/^\[blocked: get_weather: binder rejected\]/);
    expect(result.audit?.binder).toMatchObject({ status: 'schema_error' });
  });

  it('turns a raised failure into a tool_middleware_exception inside composeToolCallers', async () => {
    const { dispatcher, handler } = setup({
      binderFn: async () => {
        throw new Error('upstream 503');
      },
      onFailure: 'raise',
    });
    const result = await dispatcher.dispatch({
      name: 'get_weather',
      arguments: { _nl_intent: 'Paris' },
    });
    expect(handler).not.toHaveBeenCalled();
    expect(result.errorCategory).toBe('tool_middleware_exception');
    expect(result.error).toBe(
      'with_natural_language_executor: binder transport error: upstream 503',
    );
    expect(result.audit?.layers?.[0]).toMatchObject({
      name: 'with_natural_language_executor',
      status: 'exception',
    });
  });

  it('turns a raised failure of an uncomposed binder into an exception result', async () => {
    const { dispatcher } = setup(
      { binderFn: async () => ({ text: '[]' }), onFailure: 'raise' },
      { compose: false },
    );
    const result = await dispatcher.dispatch({
      name: 'get_weather',
      arguments: { _nl_intent: 'Paris' },
    });
    expect(result.status).toBe('exception');
    expect(result.error).toMatch(/^with_natural_language_executor: binder response parsed as/);
  });

  it('runs valid arguments without a hop and without the intent field', async () => {
    const { dispatcher, handler, binderFn } = setup();
    const result = await dispatcher.dispatch({
      name: 'get_weather',
      arguments: { ...PARIS, _nl_intent: 'Paris' },
    });
    expect(binderFn).not.toHaveBeenCalled();
    expect(handler.mock.calls[0]![0]).toEqual(PARIS);
    expect(result.audit?.binder).toMatchObject({ status: 'skipped', reason: 'args_already_valid' });
  });

  it('judges validity by the handler schema, not by fields other layers added to the model-visible one', async () => {
    const handler = vi.fn(() => 'ok');
    const weather = defineTool({
      name: 'get_weather',
      description: 'Current weather',
      inputSchema: WEATHER_SCHEMA,
      handler,
    });
    const binderFn = vi.fn<BinderFn>();
    const pair = naturalLanguageExecutorMiddleware({ provider: 'p', model: 'm', binderFn });
    const registry = toolsUseMiddleware(
      toolsUseMiddleware(createToolRegistry([weather]), (tool) =>
        toolInjectParam(tool, 'reason', { type: 'string' }, { required: true }),
      ),
      pair.schemaTransform,
    );
    // An outer layer that owns `reason` strips it, as a required-reason layer does.
    const stripReason: ToolCaller = (call, next) => {
      const { reason: _reason, ...rest } = call.toolArgs;
      return next({ ...call, toolArgs: rest });
    };
    const dispatcher = createDispatcher({
      registry,
      caller: composeToolCallers([stripReason, pair.caller]),
    });
    const result = await dispatcher.dispatch({
      name: 'get_weather',
      arguments: { ...PARIS, reason: 'user asked', _nl_intent: 'Paris' },
    });
    expect(binderFn).not.toHaveBeenCalled();
    expect(result.audit?.binder).toMatchObject({ reason: 'args_already_valid' });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('lets an unknown tool through to the executor (no_schema)', async () => {
    const { dispatcher, binderFn } = setup();
    const result = await dispatcher.dispatch({
      name: 'get_wether',
      arguments: { _nl_intent: 'Paris' },
    });
    expect(binderFn).not.toHaveBeenCalled();
    expect(result.status).toBe('tool_not_found');
    expect(result.audit?.binder).toMatchObject({ status: 'skipped', reason: 'no_schema' });
  });

  it('yields a cancelled result when the turn is cancelled during the hop', async () => {
    const entered = deferred<void>();
    const { dispatcher, handler } = setup({
      binderFn: ({ signal }) => {
        entered.resolve();
        return new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
      },
    });
    const turn = new AbortController();
    const pending = dispatcher.dispatch(
      { name: 'get_weather', arguments: { _nl_intent: 'Paris' } },
      { signal: turn.signal },
    );
    await entered.promise;
    turn.abort(new Error('stop'));
    const result = await pending;
    expect(result.status).toBe('cancelled');
    expect(handler).not.toHaveBeenCalled();
  });
});
