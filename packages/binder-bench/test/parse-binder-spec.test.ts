import { InvalidOptionError } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { parseBinderSpec } from '../src/parse-binder-spec.js';

describe('parseBinderSpec', () => {
  it('reads every kind with its settings', () => {
    expect(parseBinderSpec('lexical')).toEqual({ type: 'lexical' });
    expect(parseBinderSpec('simulated:fast,median=180,p95=450')).toEqual({
      type: 'simulated',
      label: 'fast',
      latency: { kind: 'lognormal', medianMs: 180, p95Ms: 450 },
    });
    expect(parseBinderSpec('simulated:flat,ms=300')).toMatchObject({
      latency: { kind: 'fixed', ms: 300 },
    });
    expect(parseBinderSpec('simulated:wide,min=100,max=900')).toMatchObject({
      latency: {
        kind: 'uniform',
        minMs: 100,
        maxMs: 900,
      },
    });
    expect(
      parseBinderSpec('openai:llama3.1:8b,base=http://localhost:11434/v1,label=local'),
    ).toEqual({
      type: 'openai',
      model: 'llama3.1:8b',
      baseURL: 'http://localhost:11434/v1',
      label: 'local',
      strict: false,
    });
    expect(parseBinderSpec('anthropic:claude-haiku-4-5,key=MY_KEY,mode=tool')).toEqual({
      type: 'anthropic',
      model: 'claude-haiku-4-5',
      apiKeyEnv: 'MY_KEY',
      mode: 'tool',
    });
  });

  it('throws InvalidOptionError (binder) with the accepted forms on anything else', () => {
    for (const text of [
      'gemini:pro',
      'openai',
      'simulated:x',
      'simulated:x,median=abc,p95=1',
      'openai:m,base',
    ]) {
      expect(() => parseBinderSpec(text)).toThrow(InvalidOptionError);
      expect(() => parseBinderSpec(text)).toThrow(/lexical \| simulated:LABEL/);
    }
  });
});
