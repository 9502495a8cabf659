import type { AgentInputItem, AgentOutputItem } from '@openai/agents-core';
import { functionCall } from '@openai/agents-core/testing';
import { describe, expect, it } from 'vitest';
import { passUnlistedCalls, restoreUnlistedCalls, unlistedCallOf } from '../src/unlisted-call.js';

const ours = new Set(['add', 'search']);
const listed = () => new Set(['echo', 'search', 'add']);

describe('carrying the calls the Runner would refuse', () => {
  it('carries an unknown name under the first listed tool of ours, and bad JSON under its own', () => {
    const output: AgentOutputItem[] = [
      functionCall('subtract', '{"a":1}', { callId: 'u' }),
      functionCall('add', '{"a":', { callId: 'j' }),
      functionCall('add', '{"a":1}', { callId: 'ok' }),
      functionCall('echo', '{"a":', { callId: 'theirs' }),
    ];
    const passed = passUnlistedCalls(output, listed, ours);
    const seen = passed.map((item) =>
      item.type === 'function_call' ? [item.name, unlistedCallOf(item.arguments)] : null,
    );
    expect(seen).toEqual([
      ['add', { name: 'subtract', arguments: '{"a":1}' }],
      ['add', { name: 'add', arguments: '{"a":' }],
      ['add', null],
      ['echo', null],
    ]);
    // Calls that need no carrying are the very items the model returned.
    expect(passed[2]).toBe(output[2]);
    expect(passed[3]).toBe(output[3]);
  });

  it('leaves an unknown name alone when no tool of ours is listed', () => {
    const output = [functionCall('subtract', '{}', { callId: 'u' })];
    expect(passUnlistedCalls(output, () => new Set(['echo']), ours)).toEqual(output);
  });

  it('reads a carried call back only from text that carries one', () => {
    expect(unlistedCallOf('{"switchyard_unlisted_call":{"name":"x","arguments":"{"}}')).toEqual({
      name: 'x',
      arguments: '{',
    });
    expect(unlistedCallOf('{"switchyard_unlisted_call":{"name":1,"arguments":"{}"}}')).toBeNull();
    expect(unlistedCallOf('{"switchyard_unlisted_call":')).toBeNull();
    expect(unlistedCallOf('{"a":1}')).toBeNull();
  });

  it('restores the model’s own calls and result names, and keeps an input with none carried', () => {
    const [carried] = passUnlistedCalls(
      [functionCall('subtract', '{"a', { callId: 'u' })],
      listed,
      ours,
    );
    const input: AgentInputItem[] = [
      carried as AgentInputItem,
      { type: 'function_call_result', callId: 'u', name: 'add', status: 'completed', output: 'no' },
    ];
    expect(restoreUnlistedCalls(input)).toMatchObject([
      { type: 'function_call', callId: 'u', name: 'subtract', arguments: '{"a' },
      { type: 'function_call_result', callId: 'u', name: 'subtract' },
    ]);
    const plain: AgentInputItem[] = [functionCall('add', '{}', { callId: 'p' })];
    expect(restoreUnlistedCalls(plain)).toBe(plain);
  });
});
