import { describe, expect, it } from 'vitest';
import { parseArguments } from '../../src/dispatch/parse-arguments.js';
import { toProposedCall } from '../../src/dispatch/proposed-call.js';

describe('toProposedCall', () => {
  it('reads our own shape', () => {
    expect(toProposedCall({ id: 'c1', name: 'a', arguments: '{}' })).toEqual({
      id: 'c1',
      name: 'a',
      arguments: '{}',
    });
  });

  it('reads OpenAI Chat tool calls', () => {
    expect(
      toProposedCall({
        id: 'call_1',
        type: 'function',
        function: { name: 'a', arguments: '{"x":1}' },
      }),
    ).toEqual({ id: 'call_1', name: 'a', arguments: '{"x":1}' });
  });

  it('reads OpenAI Responses function calls by call_id', () => {
    expect(
      toProposedCall({
        type: 'function_call',
        id: 'fc_1',
        call_id: 'call_9',
        name: 'a',
        arguments: '{}',
      }),
    ).toEqual({ id: 'call_9', name: 'a', arguments: '{}' });
  });

  it('reads Anthropic tool_use blocks', () => {
    expect(toProposedCall({ type: 'tool_use', id: 'toolu_1', name: 'a', input: { x: 1 } })).toEqual(
      {
        id: 'toolu_1',
        name: 'a',
        arguments: { x: 1 },
      },
    );
  });

  it('leaves the id out when missing or empty and turns missing arguments into null', () => {
    expect(toProposedCall({ id: '', name: 'a' })).toEqual({ name: 'a', arguments: null });
  });

  it('returns null for anything that is not a call', () => {
    expect(toProposedCall(null)).toBeNull();
    expect(toProposedCall([])).toBeNull();
    expect(toProposedCall({ id: 'x' })).toBeNull();
    expect(toProposedCall({ function: { arguments: '{}' } })).toBeNull();
  });
});

describe('parseArguments', () => {
  const options = { allowEmpty: false, maxLength: 100 };

  it('parses an object from JSON text and passes objects through', () => {
    expect(parseArguments('{"a":1}', options)).toEqual({ a: 1 });
    const args = { a: 1 };
    expect(parseArguments(args, options)).toBe(args);
  });

  it('checks the length before parsing', () => {
    const result = parseArguments(`{"a":"${'x'.repeat(200)}"}`, options);
    expect(result).toBe('arguments are 208 characters long; the limit is 100');
  });

  it('maps empty input to {} only when allowed', () => {
    expect(parseArguments('', { ...options, allowEmpty: true })).toEqual({});
    expect(parseArguments('', options)).toMatch(/^no arguments were received/);
  });

  it('refuses text that is not a JSON object with a message for the model', () => {
    expect(parseArguments('{"a":', options)).toMatch(/^arguments are not valid JSON \(/);
    expect(parseArguments('[1]', options)).toBe('arguments must be a JSON object; got an array');
    expect(parseArguments(7, options)).toBe('arguments must be a JSON object; got a number');
  });
});
