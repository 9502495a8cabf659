import { describe, expect, it } from 'vitest';
import {
  CancelledError,
  classifyError,
  fromInternal,
  isRecoverable,
  isTransient,
  retryableDenial,
  SwitchyardError,
  TOOL_CALL_ERROR_CATEGORIES,
  ToolDefinitionError,
  ToolTimeoutError,
  terminalDenial,
  toWireCategory,
} from '../../src/index.js';

describe('classifyError', () => {
  it.each([
    [{ status: 401 }, 'auth'],
    [{ status: 403 }, 'auth'],
    [{ statusCode: 404 }, 'not_found'],
    [{ status: 410 }, 'not_found'],
    [{ status: 408 }, 'timeout'],
    [{ status: 504 }, 'timeout'],
    [{ status: 429 }, 'rate_limit'],
    [{ status: 503 }, 'overloaded'],
    [{ status: 529 }, 'overloaded'],
    [{ status: 500 }, 'server_error'],
    [{ status: 502 }, 'server_error'],
    [{ category: 'egress_blocked' }, 'egress_blocked'],
  ])('reads %j from the error fields as %s', (fields, category) => {
    expect(classifyError(Object.assign(new Error('boom'), fields))).toBe(category);
  });

  it.each([
    ['HTTP 429 Too Many Requests', 'rate_limit'],
    ['request failed with status 502', 'server_error'],
    ['deadline exceeded while waiting', 'timeout'],
    ['{"type":"overloaded_error"}', 'overloaded'],
    ['insufficient_quota', 'rate_limit'],
    ['billing_hard_limit_reached', 'rate_limit'],
    ['invalid_api_key provided', 'auth'],
    ['authentication_error', 'auth'],
    ['model_not_found', 'not_found'],
    ['circuit_open for upstream', 'circuit_open'],
    ['api_error: internal', 'server_error'],
    ['read ECONNRESET', 'transient_network'],
    ['connection refused by peer', 'transient_network'],
    ['broken pipe', 'transient_network'],
    ['unexpected EOF in body', 'transient_network'],
    ['the file does not exist', 'generic'],
  ])('reads %j from the message as %s', (message, category) => {
    expect(classifyError(new Error(message))).toBe(category);
  });

  it('recognises aborts, our cancellation and timeout errors, and non-Error values', () => {
    expect(classifyError(new DOMException('aborted', 'AbortError'))).toBe('cancelled');
    expect(classifyError(new DOMException('late', 'TimeoutError'))).toBe('timeout');
    expect(classifyError(new CancelledError())).toBe('cancelled');
    expect(classifyError(new ToolTimeoutError('t', 5))).toBe('timeout');
    expect(classifyError('socket hang up')).toBe('transient_network');
    expect(classifyError(null)).toBe('generic');
  });
});

describe('categories', () => {
  it('are recoverable only for schema validation', () => {
    expect(TOOL_CALL_ERROR_CATEGORIES.filter(isRecoverable)).toEqual(['schema_validation']);
  });

  it('map internal categories onto the wire enum', () => {
    expect(fromInternal('rate_limit')).toBe('network');
    expect(fromInternal('transient_network')).toBe('network');
    expect(fromInternal('tool_rejected')).toBe('permission_denied');
    expect(fromInternal('schema_stream_aborted')).toBe('schema_validation');
    expect(fromInternal('auth')).toBe('host_bridge_error');
    expect(fromInternal('internal')).toBe('host_bridge_error');
    expect(fromInternal('cancelled')).toBe('cancelled');
    expect(isTransient('overloaded')).toBe(true);
    expect(isTransient('auth')).toBe(false);
  });

  it('normalize result words for lifecycle events', () => {
    expect(toWireCategory('consent_denied')).toBe('permission_denied');
    expect(toWireCategory('scope_violation')).toBe('permission_denied');
    expect(toWireCategory('schema_violation')).toBe('schema_validation');
    expect(toWireCategory('tool_not_found')).toBe('schema_validation');
    expect(toWireCategory('tool_middleware_exception')).toBe('tool_error');
    expect(toWireCategory('intra_turn_resource_fail_fast')).toBe('rejected_loop');
    expect(toWireCategory('rate_limited')).toBe('resource_busy');
    expect(toWireCategory('timeout')).toBe('timeout');
    expect(toWireCategory('something new')).toBe('unknown');
    expect(toWireCategory('__proto__')).toBe('unknown');
    expect(toWireCategory('')).toBeNull();
    expect(toWireCategory(null)).toBeNull();
  });
});

describe('denials', () => {
  it('are terminal or retryable with the gate that refused', () => {
    expect(
      terminalDenial('side_effect_ceiling', 'too strong', { capability: 'process.exec' }),
    ).toEqual({
      gate: 'side_effect_ceiling',
      reason: 'too strong',
      retryable: false,
      deniedPaths: [],
      capability: 'process.exec',
    });
    expect(
      retryableDenial('arg_constraint', 'path outside root', { deniedPaths: ['/etc'] }),
    ).toEqual({
      gate: 'arg_constraint',
      reason: 'path outside root',
      retryable: true,
      deniedPaths: ['/etc'],
    });
  });
});

describe('error classes', () => {
  it('carry stable codes and are recognised across copies of the package', () => {
    const error = new ToolDefinitionError('bad', { rule: 'name_empty', toolName: '' });
    expect(error).toMatchObject({
      code: 'invalid_tool_definition',
      rule: 'name_empty',
      name: 'ToolDefinitionError',
    });
    const foreign = {
      [Symbol.for('switchyard.error')]: true,
      code: 'cancelled',
      message: 'from another copy',
    };
    expect(CancelledError.isInstance(foreign)).toBe(true);
    expect(ToolDefinitionError.isInstance(foreign)).toBe(false);
    expect(SwitchyardError.isInstance(foreign)).toBe(true);
    expect(CancelledError.isInstance(new Error('cancelled'))).toBe(false);
  });
});
