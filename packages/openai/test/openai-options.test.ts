import { OpenAI } from 'openai';
import { InvalidOptionError } from 'switchyard';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { thrownBy } from '../../../test/support/thrown-by.js';
import {
  createOpenAIChatModel,
  createOpenAIResponsesModel,
  type OpenAIModelOptions,
} from '../src/index.js';

const client = new OpenAI({ apiKey: 'test-key', baseURL: 'http://127.0.0.1:9/v1' });

afterEach(() => {
  vi.unstubAllEnvs();
});

describe.each([
  ['createOpenAIChatModel', createOpenAIChatModel],
  ['createOpenAIResponsesModel', createOpenAIResponsesModel],
] as const)('%s options', (factory, create) => {
  it.each<[string, Record<string, unknown>]>([
    ['model', {}],
    ['model', { model: '' }],
    ['client', { model: 'm', client: {} }],
    ['apiKey', { model: 'm', client, apiKey: 'sk' }],
    ['baseURL', { model: 'm', client, baseURL: 'http://x/v1' }],
    ['maxRetries', { model: 'm', client, maxRetries: -1 }],
    ['maxRetries', { model: 'm', client, maxRetries: 1.5 }],
    ['timeoutMs', { model: 'm', client, timeoutMs: 0 }],
    ['temperature', { model: 'm', client, temperature: Number.NaN }],
    ['maxOutputTokens', { model: 'm', client, maxOutputTokens: 0 }],
    ['parallelToolCalls', { model: 'm', client, parallelToolCalls: 'yes' }],
    ['extraBody', { model: 'm', client, extraBody: [] }],
  ])('refuses a bad %s with an InvalidOptionError naming it', (option, options) => {
    const error = thrownBy(() => create(options as unknown as OpenAIModelOptions));

    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error).toMatchObject({ code: 'SY_ERR_INVALID_OPTION', option });
    expect((error as Error).message).toMatch(new RegExp(`^${factory}: ${option}`));
  });

  it('refuses to start without an API key anywhere', () => {
    vi.stubEnv('OPENAI_API_KEY', '');

    const error = thrownBy(() => create({ model: 'm' }));

    expect(error).toMatchObject({ code: 'SY_ERR_INVALID_OPTION', option: 'apiKey' });
  });

  it('takes the API key from OPENAI_API_KEY, as the SDK does', () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-env');

    const model = create({ model: 'gpt-test' });

    expect(model).toMatchObject({ provider: 'openai', model: 'gpt-test', toolCalling: 'native' });
  });
});
