import { describe, expect, it } from 'vitest';
import {
  CancelledError,
  errorMessage,
  InvalidOptionError,
  SwitchyardError,
  ToolDefinitionError,
  ToolTimeoutError,
} from '../../src/errors.js';

const BRAND = Symbol.for('switchyard.error');

describe('SwitchyardError.isInstance', () => {
  it('recognises our errors by class', () => {
    const cancelled = new CancelledError('stop');
    expect(CancelledError.isInstance(cancelled)).toBe(true);
    expect(SwitchyardError.isInstance(cancelled)).toBe(true);
    expect(ToolTimeoutError.isInstance(cancelled)).toBe(false);
    expect(ToolDefinitionError.isInstance(new ToolDefinitionError('x', { rule: 'r' }))).toBe(true);
    expect(InvalidOptionError.isInstance(new InvalidOptionError('o', 'm'))).toBe(true);
  });

  it('recognises a plain object carrying the brand and code, as from a duplicate install', () => {
    const fromOtherCopy = {
      [BRAND]: true,
      code: 'SY_ERR_CANCELLED',
      message: 'stop',
      name: 'CancelledError',
    };
    expect(fromOtherCopy instanceof CancelledError).toBe(false);
    expect(CancelledError.isInstance(fromOtherCopy)).toBe(true);
    expect(SwitchyardError.isInstance(fromOtherCopy)).toBe(true);
    expect(ToolTimeoutError.isInstance(fromOtherCopy)).toBe(false);
  });

  it('rejects look-alikes without the brand', () => {
    expect(CancelledError.isInstance({ code: 'SY_ERR_CANCELLED' })).toBe(false);
    expect(CancelledError.isInstance(new Error('cancelled'))).toBe(false);
    expect(SwitchyardError.isInstance(null)).toBe(false);
    expect(SwitchyardError.isInstance('cancelled')).toBe(false);
    expect(CancelledError.isInstance({ [BRAND]: 'yes', code: 'SY_ERR_CANCELLED' })).toBe(false);
  });

  it('gives each class a stable code and name', () => {
    expect(new CancelledError().code).toBe('SY_ERR_CANCELLED');
    expect(new ToolTimeoutError('t', 1).code).toBe('SY_ERR_TOOL_TIMEOUT');
    expect(new ToolDefinitionError('m', { rule: 'name_empty', toolName: '' })).toMatchObject({
      code: 'SY_ERR_INVALID_TOOL_DEFINITION',
      rule: 'name_empty',
      name: 'ToolDefinitionError',
    });
    expect(new InvalidOptionError('o', 'm').code).toBe('SY_ERR_INVALID_OPTION');
    expect(new ToolTimeoutError('t', 1).name).toBe('ToolTimeoutError');
  });

  it('keeps the cancellation reason as cause', () => {
    const reason = new Error('user');
    const error = new CancelledError('stopped', reason);
    expect(error.reason).toBe(reason);
    expect(error.cause).toBe(reason);
  });
});

describe('errorMessage', () => {
  it('never throws, whatever was thrown', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(errorMessage(new Error('m'))).toBe('m');
    expect(errorMessage(new TypeError(''))).toBe('TypeError');
    expect(errorMessage('text')).toBe('text');
    expect(errorMessage({ a: 1 })).toBe('{"a":1}');
    expect(errorMessage(cyclic)).toBe('[object Object]');
    expect(errorMessage(undefined)).toBe('undefined');
  });
});
