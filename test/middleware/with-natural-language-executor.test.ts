import { describe, expect, it, vi } from 'vitest';
import { InvalidOptionError } from '../../src/errors.js';
import {
  BinderFailureError,
  type BinderFn,
  type BinderResponse,
  DEFAULT_BINDER_SYSTEM,
  DEFAULT_INTENT_DESCRIPTION,
  type NaturalLanguageExecutorOptions,
  naturalLanguageExecutorMiddleware,
  naturalLanguageExecutorSchemaTransform,
  withNaturalLanguageExecutor,
} from '../../src/middleware/index.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { SchemaValidator } from '../../src/tools/schema-validator.js';
import {
  binderAuditOf,
  recordingNext,
  WEATHER_SCHEMA,
  weatherCall,
} from '../support/binder-envelope.js';
import { thrownBy } from '../support/thrown-by.js';

const PARIS = { city: 'Paris', unit: 'c' };
/** A budget timer that never fires: these tests decide time with the injected clock alone. */
const neverFires = () => () => {};

function binder(options: Partial<NaturalLanguageExecutorOptions> = {}) {
  return withNaturalLanguageExecutor({
    provider: 'cerebras',
    model: 'gpt-oss-120b',
    binderFn: async () => ({ data: PARIS }),
    timer: neverFires,
    ...options,
  });
}

describe('withNaturalLanguageExecutor options', () => {
  const instant: BinderFn = async () => ({ data: PARIS });
  const base = { provider: 'cerebras', model: 'gpt-oss-120b', binderFn: instant };

  it.each([
    ['provider', { ...base, provider: '' }],
    ['provider', { ...base, provider: undefined }],
    ['model', { ...base, model: '  ' }],
    ['model', { ...base, model: 7 }],
    ['timeoutMs', { ...base, timeoutMs: 0 }],
    ['timeoutMs', { ...base, timeoutMs: 0.5 }],
    ['timeoutMs', { ...base, timeoutMs: Number.NaN }],
    ['timeoutMs', { ...base, timeoutMs: Number.POSITIVE_INFINITY }],
    ['timeoutMs', { ...base, timeoutMs: '500' }],
    ['maxRetries', { ...base, maxRetries: 1 }],
    ['maxRetries', { ...base, maxRetries: -1 }],
    ['intentField', { ...base, intentField: '' }],
    ['intentDescription', { ...base, intentDescription: '' }],
    ['passthroughWhenArgsValid', { ...base, passthroughWhenArgsValid: 'yes' }],
    ['onFailure', { ...base, onFailure: 'ignore' }],
    ['system', { ...base, system: '' }],
    ['binderFn', { ...base, binderFn: 'llm_call' }],
    ['binderFn', { provider: 'cerebras', model: 'gpt-oss-120b' }],
    ['client', { ...base, client: {} }],
    ['now', { ...base, now: 5 }],
    ['timer', { ...base, timer: {} }],
    ['validator', { ...base, validator: {} }],
    ['timeout_ms', { ...base, timeout_ms: 100 }],
    ['options', null],
  ])('rejects a bad %s at construction with an InvalidOptionError naming it', (option, options) => {
    const error = thrownBy(() =>
      withNaturalLanguageExecutor(options as unknown as NaturalLanguageExecutorOptions),
    );
    expect(InvalidOptionError.isInstance(error)).toBe(true);
    expect((error as InvalidOptionError).option).toBe(option);
    expect((error as Error).message).toMatch(/^withNaturalLanguageExecutor: /);
  });

  it('explains that retries defeat the latency win when maxRetries is not 0', () => {
    const error = thrownBy(() => withNaturalLanguageExecutor({ ...base, maxRetries: 2 }));
    expect((error as InvalidOptionError).code).toBe('SY_ERR_INVALID_OPTION');
    expect((error as Error).message).toContain('retries defeat the latency win');
    expect((error as Error).message).toContain('got 2');
  });

  it('accepts maxRetries 0, timeoutMs 1 and every documented option', () => {
    const caller = withNaturalLanguageExecutor({
      ...base,
      maxRetries: 0,
      timeoutMs: 1,
      intentField: 'intent',
      intentDescription: 'say it in words',
      passthroughWhenArgsValid: false,
      onFailure: 'reject',
      system: 'bind',
      now: () => 0,
      timer: neverFires,
      validator: new SchemaValidator(),
    });
    expect(caller.name).toBe('with_natural_language_executor');
  });
});

describe('withNaturalLanguageExecutor binding', () => {
  it('binds the intent and hands the bound arguments on, with an ok audit', async () => {
    const next = recordingNext();
    const result = await binder()(weatherCall({ _nl_intent: 'Paris, celsius' }), next);
    expect(next).toHaveBeenCalledTimes(1);
    expect(next.mock.calls[0]![0].toolArgs).toEqual(PARIS);
    expect(result.ok).toBe(true);
    expect(result.audit?.binder).toEqual({
      provider: 'cerebras',
      model: 'gpt-oss-120b',
      status: 'ok',
      latencyMs: expect.any(Number),
      attempts: 1,
    });
    expect(result.audit?.binder).not.toHaveProperty('reason');
    // The binder's record sits beside the layers, which stay as the inner layers left them.
    expect(result.audit?.layers).toEqual([{ name: 'inner', status: 'ok' }]);
  });

  it('asks the binder with the trimmed intent, the partial arguments, the schema without the intent field and the system prompt', async () => {
    const binderFn = vi.fn<BinderFn>(async () => ({ data: PARIS }));
    await binder({ binderFn })(
      weatherCall({ city: 'Paris', _nl_intent: '  in celsius please \n' }),
      recordingNext(),
    );
    const request = binderFn.mock.calls[0]![0];
    expect(request.tool).toBe('get_weather');
    expect(request.description).toBe('Current weather in a city');
    expect(request.intent).toBe('in celsius please');
    expect(request.partialArgs).toEqual({ city: 'Paris' });
    expect(request.schema).toEqual(WEATHER_SCHEMA);
    expect(request.system).toBe(DEFAULT_BINDER_SYSTEM);
    expect(request.prompt).toContain('in celsius please');
    expect(request.prompt).toContain('{"city":"Paris"}');
    expect(request.prompt).toContain(JSON.stringify(WEATHER_SCHEMA));
    expect(request.signal).toBeInstanceOf(AbortSignal);
    expect(request.signal.aborted).toBe(false);
  });

  it('passes a custom system prompt to the binder', async () => {
    const binderFn = vi.fn<BinderFn>(async () => ({ data: PARIS }));
    await binder({ binderFn, system: 'Only JSON.' })(
      weatherCall({ _nl_intent: 'Paris' }),
      recordingNext(),
    );
    expect(binderFn.mock.calls[0]![0].system).toBe('Only JSON.');
  });

  it('reads JSON text when the binder answers with text', async () => {
    const next = recordingNext();
    await binder({ binderFn: async () => ({ text: '{"city":"Oslo","unit":"f"}' }) })(
      weatherCall({ _nl_intent: 'Oslo in fahrenheit' }),
      next,
    );
    expect(next.mock.calls[0]![0].toolArgs).toEqual({ city: 'Oslo', unit: 'f' });
  });

  it('prefers data over text when the binder answers with both', async () => {
    const next = recordingNext();
    await binder({ binderFn: async () => ({ data: PARIS, text: 'not json' }) })(
      weatherCall({ _nl_intent: 'Paris' }),
      next,
    );
    expect(next.mock.calls[0]![0].toolArgs).toEqual(PARIS);
  });

  it('measures the hop with the injected clock', async () => {
    const times = [100, 142];
    const result = await binder({ now: () => times.shift() ?? 0 })(
      weatherCall({ _nl_intent: 'Paris' }),
      recordingNext(),
    );
    expect(result.audit?.binder).toMatchObject({ status: 'ok', latencyMs: 42 });
  });

  it('reads the intent from a custom intentField', async () => {
    const binderFn = vi.fn<BinderFn>(async () => ({ data: PARIS }));
    const next = recordingNext();
    await binder({ binderFn, intentField: 'intent' })(
      weatherCall({ intent: 'Paris', _nl_intent: 'ignored' }, { schema: WEATHER_SCHEMA }),
      next,
    );
    expect(binderFn.mock.calls[0]![0].intent).toBe('Paris');
    expect(next.mock.calls[0]![0].toolArgs).toEqual(PARIS);
  });

  it('validates with the injected validator', async () => {
    const validator = new SchemaValidator();
    await binder({ validator })(weatherCall({ _nl_intent: 'Paris' }), recordingNext());
    expect(validator.compileCount).toBe(1);
  });
});

describe('withNaturalLanguageExecutor skip reasons', () => {
  function skipped(reason: string) {
    return {
      provider: 'cerebras',
      model: 'gpt-oss-120b',
      status: 'skipped',
      latencyMs: 0,
      attempts: 0,
      reason,
    };
  }

  it('skips the hop when the arguments without the intent already validate (args_already_valid)', async () => {
    const binderFn = vi.fn<BinderFn>();
    const next = recordingNext();
    const result = await binder({ binderFn })(
      weatherCall({ ...PARIS, _nl_intent: 'Paris in celsius' }),
      next,
    );
    expect(binderFn).not.toHaveBeenCalled();
    expect(next.mock.calls[0]![0].toolArgs).toEqual(PARIS);
    expect(result.audit?.binder).toEqual(skipped('args_already_valid'));
  });

  it('checks args_already_valid before no_intent, handing on the very same envelope', async () => {
    const next = recordingNext();
    const call = weatherCall({ ...PARIS });
    const result = await binder()(call, next);
    expect(next.mock.calls[0]![0]).toBe(call);
    expect(result.audit?.binder).toEqual(skipped('args_already_valid'));
  });

  it('calls the binder for valid arguments when passthroughWhenArgsValid is false', async () => {
    const binderFn = vi.fn<BinderFn>(async () => ({ data: { city: 'Lyon', unit: 'c' } }));
    const next = recordingNext();
    const result = await binder({ binderFn, passthroughWhenArgsValid: false })(
      weatherCall({ ...PARIS, _nl_intent: 'actually Lyon' }),
      next,
    );
    expect(binderFn).toHaveBeenCalledTimes(1);
    expect(next.mock.calls[0]![0].toolArgs).toEqual({ city: 'Lyon', unit: 'c' });
    expect(result.audit?.binder).toMatchObject({ status: 'ok' });
  });

  it('skips a call without a schema (no_schema), stripping the intent', async () => {
    const binderFn = vi.fn<BinderFn>();
    const next = recordingNext();
    const result = await binder({ binderFn })(
      weatherCall({ _nl_intent: 'Paris' }, { toolName: 'nope', schema: null }),
      next,
    );
    expect(binderFn).not.toHaveBeenCalled();
    expect(next.mock.calls[0]![0].toolArgs).toEqual({});
    expect(result.audit?.binder).toEqual(skipped('no_schema'));
  });

  it('checks no_schema before no_intent', async () => {
    const result = await binder()(weatherCall({}, { schema: null }), recordingNext());
    expect(result.audit?.binder).toEqual(skipped('no_schema'));
  });

  it('skips a call without an intent (no_intent), handing on the very same envelope', async () => {
    const binderFn = vi.fn<BinderFn>();
    const next = recordingNext();
    const call = weatherCall({ city: 'Paris' });
    const result = await binder({ binderFn })(call, next);
    expect(binderFn).not.toHaveBeenCalled();
    expect(next.mock.calls[0]![0]).toBe(call);
    expect(result.audit?.binder).toEqual(skipped('no_intent'));
  });

  it.each([
    ['a blank string', '   '],
    ['a number', 42],
    ['null', null],
  ])('treats an intent that is %s as no intent and strips the field', async (_label, value) => {
    const binderFn = vi.fn<BinderFn>();
    const next = recordingNext();
    const result = await binder({ binderFn })(
      weatherCall({ city: 'Paris', _nl_intent: value }),
      next,
    );
    expect(binderFn).not.toHaveBeenCalled();
    expect(next.mock.calls[0]![0].toolArgs).toEqual({ city: 'Paris' });
    expect(result.audit?.binder).toEqual(skipped('no_intent'));
  });

  it('does not check validity when passthroughWhenArgsValid is false (no_intent for valid args)', async () => {
    const result = await binder({ passthroughWhenArgsValid: false })(
      weatherCall({ ...PARIS }),
      recordingNext(),
    );
    expect(result.audit?.binder).toEqual(skipped('no_intent'));
  });
});

describe('withNaturalLanguageExecutor failures', () => {
  const failures: [string, string, BinderFn, string | RegExp][] = [
    [
      'a rejected promise',
      'transport_error',
      async () => {
        throw new Error('connection reset');
      },
      'binder transport error: connection reset',
    ],
    [
      'a synchronous throw',
      'transport_error',
      () => {
        throw new TypeError('bad request');
      },
      'binder transport error: bad request',
    ],
    [
      'no object',
      'schema_error',
      async () => null as unknown as BinderResponse,
      'binder returned an unexpected response shape',
    ],
    [
      'data that is not an object',
      'schema_error',
      async () => ({ data: [1, 2] }),
      'binder returned an unexpected response shape',
    ],
    [
      'text that is not JSON',
      'schema_error',
      async () => ({ text: 'city=Paris' }),
      'binder response is not valid JSON',
    ],
    [
      'JSON that is not an object',
      'schema_error',
      async () => ({ text: '["Paris"]' }),
      'binder response parsed as an array; expected an object',
    ],
    [
      'arguments that fail the schema',
      'schema_error',
      async () => ({ data: { city: 'Paris', unit: 'kelvin' } }),
      /^binder output failed schema validation: unit: /,
    ],
  ];

  it.each(failures)(
    'hands on the stripped call when the binder gives %s (passthrough, the default)',
    async (_label, status, binderFn, reason) => {
      const next = recordingNext();
      const result = await binder({ binderFn })(
        weatherCall({ city: 'Paris', _nl_intent: 'celsius' }),
        next,
      );
      expect(next).toHaveBeenCalledTimes(1);
      expect(next.mock.calls[0]![0].toolArgs).toEqual({ city: 'Paris' });
      expect(result.status).toBe('ok');
      expect(result.audit?.binder).toMatchObject({
        status,
        attempts: 1,
        latencyMs: expect.any(Number),
      });
      expect(binderAuditOf(result)?.reason).toMatch(reason);
    },
  );

  it.each(failures)(
    'short-circuits with schema_violation when the binder gives %s (reject)',
    async (_label, status, binderFn, reason) => {
      const next = recordingNext();
      const call = weatherCall({ city: 'Paris', _nl_intent: 'celsius' });
      const result = await binder({ binderFn, onFailure: 'reject' })(call, next);
      expect(next).not.toHaveBeenCalled();
      expect(result.ok).toBe(false);
      expect(result.status).toBe('error');
      expect(result.errorCategory).toBe('schema_violation');
      expect(result.error).toMatch(reason);
      expect(result.toolCallId).toBe('call_1');
      expect(result.arguments).toBe(call.toolArgs);
      expect(result.observation.split('\n')[0]).toBe('[blocked: get_weather: binder rejected]');
      expect(result.observation).toContain(result.error);
      expect(result.audit?.binder).toMatchObject({ status, attempts: 1, reason: result.error });
    },
  );

  it.each(failures)(
    'throws BinderFailureError when the binder gives %s (raise)',
    async (_label, status, binderFn, reason) => {
      const next = recordingNext();
      const error = await binder({ binderFn, onFailure: 'raise' })(
        weatherCall({ _nl_intent: 'Paris' }),
        next,
      ).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(next).not.toHaveBeenCalled();
      expect(BinderFailureError.isInstance(error)).toBe(true);
      const failure = error as BinderFailureError;
      expect(failure.code).toBe('SY_ERR_BINDER_FAILURE');
      expect(failure.status).toBe(status);
      expect(failure.reason).toMatch(reason);
      expect(failure.message).toBe(`with_natural_language_executor: ${failure.reason}`);
      expect(failure.toolName).toBe('get_weather');
    },
  );

  it('keeps the thrown transport error as the cause of a raised failure', async () => {
    const cause = new Error('socket hang up');
    const error = await binder({ binderFn: () => Promise.reject(cause), onFailure: 'raise' })(
      weatherCall({ _nl_intent: 'Paris' }),
      recordingNext(),
    ).catch((thrown: unknown) => thrown);
    expect((error as Error).cause).toBe(cause);
  });

  it('reports a hop that outlived the budget as timeout even though the binder answered validly', async () => {
    let clock = 0;
    const next = recordingNext();
    const result = await binder({
      now: () => clock,
      timeoutMs: 100,
      binderFn: async () => {
        clock += 101;
        return { data: PARIS };
      },
    })(weatherCall({ _nl_intent: 'Paris' }), next);
    expect(result.audit?.binder).toMatchObject({
      status: 'timeout',
      latencyMs: 101,
      attempts: 1,
      reason: 'binder hop exceeded timeoutMs=100 (elapsed=101ms)',
    });
    expect(next.mock.calls[0]![0].toolArgs).toEqual({});
  });

  it('accepts an answer that arrives exactly at the budget', async () => {
    let clock = 0;
    const result = await binder({
      now: () => clock,
      timeoutMs: 100,
      binderFn: async () => {
        clock += 100;
        return { data: PARIS };
      },
    })(weatherCall({ _nl_intent: 'Paris' }), recordingNext());
    expect(result.audit?.binder).toMatchObject({ status: 'ok', latencyMs: 100 });
  });

  it.each([
    [
      'a transport error',
      async () => {
        throw new Error('reset');
      },
    ],
    ['an invalid answer', async () => ({ text: 'nope' })],
    ['a schema-violating answer', async () => ({ data: { city: 1 } })],
  ])('checks the budget before %s', async (_label, answer) => {
    let clock = 0;
    const result = await binder({
      now: () => clock,
      timeoutMs: 50,
      onFailure: 'reject',
      binderFn: async () => {
        clock += 75;
        return answer();
      },
    })(weatherCall({ _nl_intent: 'Paris' }), recordingNext());
    expect(result.audit?.binder).toMatchObject({ status: 'timeout', latencyMs: 75 });
  });

  it('checks the response shape before the schema', async () => {
    const result = await binder({ binderFn: async () => ({ text: '{"city": 1' }) })(
      weatherCall({ _nl_intent: 'Paris' }),
      recordingNext(),
    );
    expect(binderAuditOf(result)?.reason).toBe('binder response is not valid JSON');
  });
});

describe('naturalLanguageExecutorSchemaTransform', () => {
  const weather = defineTool({
    name: 'get_weather',
    description: 'Current weather in a city',
    inputSchema: WEATHER_SCHEMA,
    handler: () => 'sunny',
  });

  it('adds an optional _nl_intent string and keeps the handler schema', () => {
    const spec = naturalLanguageExecutorSchemaTransform()(weather);
    expect(spec.inputSchema.properties).toMatchObject({
      _nl_intent: { type: 'string', description: DEFAULT_INTENT_DESCRIPTION },
    });
    expect(spec.inputSchema.required).toEqual(['city', 'unit']);
    expect(spec.handlerSchema).toBe(WEATHER_SCHEMA);
  });

  it('is idempotent', () => {
    const transform = naturalLanguageExecutorSchemaTransform();
    const once = transform(weather);
    const twice = transform(defineTool(once));
    expect(twice.inputSchema).toEqual(once.inputSchema);
  });

  it('uses a custom field name and description', () => {
    const spec = naturalLanguageExecutorSchemaTransform({
      intentField: 'intent',
      description: 'Say it in words',
    })(weather);
    expect(spec.inputSchema.properties).toMatchObject({
      intent: { type: 'string', description: 'Say it in words' },
    });
    expect(spec.inputSchema.properties).not.toHaveProperty('_nl_intent');
  });

  it('throws an InvalidOptionError on an empty intentField', () => {
    const error = thrownBy(() => naturalLanguageExecutorSchemaTransform({ intentField: ' ' }));
    expect((error as InvalidOptionError).option).toBe('intentField');
  });

  it('pairs the transform and the caller from one set of options', () => {
    const pair = naturalLanguageExecutorMiddleware({
      provider: 'cerebras',
      model: 'gpt-oss-120b',
      binderFn: async () => ({ data: PARIS }),
      intentField: 'intent',
      intentDescription: 'What you want, in words',
    });
    expect(pair.caller.name).toBe('with_natural_language_executor');
    expect(pair.schemaTransform(weather).inputSchema.properties).toMatchObject({
      intent: { type: 'string', description: 'What you want, in words' },
    });
  });

  it('validates the options of the pair at construction', () => {
    const error = thrownBy(() =>
      naturalLanguageExecutorMiddleware({
        provider: 'x',
        model: 'y',
        binderFn: async () => ({}),
        maxRetries: 3,
      }),
    );
    expect((error as InvalidOptionError).option).toBe('maxRetries');
  });
});
