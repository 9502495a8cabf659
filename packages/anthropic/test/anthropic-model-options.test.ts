import { Anthropic } from '@anthropic-ai/sdk';
import { InvalidOptionError } from 'switchyard';
import { describe, expect, it } from 'vitest';
import {
  type AnthropicModelOptions,
  createAnthropicModel,
  DEFAULT_ANTHROPIC_MAX_TOKENS,
} from '../src/index.js';

const client = new Anthropic({ apiKey: 'test-key', baseURL: 'http://127.0.0.1:9' });

/** The option an invalid construction names; fails the test when construction succeeds. */
function rejectedOption(options: unknown): string {
  try {
    createAnthropicModel(options as AnthropicModelOptions);
  } catch (error) {
    if (InvalidOptionError.isInstance(error)) return error.option;
    throw error;
  }
  throw new Error('createAnthropicModel accepted the options');
}

describe('createAnthropicModel options', () => {
  it('builds a native-calling anthropic ModelClient from a model and a client', () => {
    const model = createAnthropicModel({ model: 'claude-wire', client });
    expect(model).toMatchObject({
      provider: 'anthropic',
      model: 'claude-wire',
      toolCalling: 'native',
    });
    expect(typeof model.stream).toBe('function');
    expect(DEFAULT_ANTHROPIC_MAX_TOKENS).toBe(4096);
  });

  it('builds its own client from apiKey and baseURL', () => {
    const model = createAnthropicModel({
      model: 'claude-wire',
      apiKey: 'test-key',
      baseURL: 'http://127.0.0.1:9/anthropic',
      maxRetries: 0,
      timeoutMs: 1000,
      maxTokens: 1,
      disableParallelToolUse: true,
    });
    expect(model.model).toBe('claude-wire');
  });

  it.each([
    ['model', undefined],
    ['options', 'claude-wire'],
    ['model', {}],
    ['model', { model: '  ' }],
    ['client', { model: 'm', client: {} }],
    ['client', { model: 'm', client: null }],
    ['apiKey', { model: 'm', client, apiKey: 'k' }],
    ['baseURL', { model: 'm', client, baseURL: 'http://127.0.0.1:9' }],
    ['apiKey', { model: 'm', apiKey: '' }],
    ['baseURL', { model: 'm', baseURL: 'not a url' }],
    ['baseURL', { model: 'm', baseURL: 'https://api.example.com/v1' }],
    ['baseURL', { model: 'm', baseURL: 'https://api.example.com/v1/' }],
    ['maxRetries', { model: 'm', client, maxRetries: -1 }],
    ['maxRetries', { model: 'm', client, maxRetries: 1.5 }],
    ['timeoutMs', { model: 'm', client, timeoutMs: 0 }],
    ['timeoutMs', { model: 'm', client, timeoutMs: Number.NaN }],
    ['maxTokens', { model: 'm', client, maxTokens: 0 }],
    ['maxTokens', { model: 'm', client, maxTokens: 10.5 }],
    ['disableParallelToolUse', { model: 'm', client, disableParallelToolUse: 'yes' }],
    ['temperature', { model: 'm', client, temperature: 0 }],
    ['hostedTools', { model: 'm', client, hostedTools: { type: 'web_search_20250305' } }],
    ['hostedTools', { model: 'm', client, hostedTools: [{ name: 'web_search' }] }],
    ['extraBody', { model: 'm', client, extraBody: 'thinking' }],
    ['extraBody', { model: 'm', client, extraBody: [] }],
  ])('names %s when it is invalid (%j)', (option, options) => {
    expect(rejectedOption(options)).toBe(option);
  });

  it('says why temperature is refused', () => {
    expect(() =>
      createAnthropicModel({ model: 'm', client, temperature: 0 } as AnthropicModelOptions),
    ).toThrow(/has no sampling temperature/);
  });
});
