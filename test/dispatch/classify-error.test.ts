import { describe, expect, it } from 'vitest';
import { classifyError } from '../../src/dispatch/classify-error.js';
import { CancelledError, ToolDefinitionError, ToolTimeoutError } from '../../src/errors.js';

function withFields(message: string, fields: Record<string, unknown>): Error {
  return Object.assign(new Error(message), fields);
}

describe('classifyError', () => {
  it.each([
    [401, 'auth'],
    [403, 'auth'],
    [404, 'not_found'],
    [410, 'not_found'],
    [408, 'timeout'],
    [504, 'timeout'],
    [522, 'timeout'],
    [524, 'timeout'],
    [429, 'rate_limit'],
    [503, 'overloaded'],
    [529, 'overloaded'],
    [500, 'server_error'],
    [502, 'server_error'],
  ])('reads HTTP status %i from a status field as %s', (status, category) => {
    expect(classifyError(withFields('failed', { status }))).toBe(category);
    expect(classifyError(withFields('failed', { statusCode: status }))).toBe(category);
  });

  it.each([
    ['Request failed with status code 429', 'rate_limit'],
    ['upstream returned 503 Service Unavailable', 'overloaded'],
    ['HTTP 401: bad credentials', 'auth'],
    ['error 502 from gateway', 'server_error'],
  ])('finds the HTTP status code in the message %j', (message, category) => {
    expect(classifyError(new Error(message))).toBe(category);
  });

  it('ignores three-digit numbers that are not classified statuses and reads on', () => {
    expect(classifyError(new Error('read 200 rows then: connection reset'))).toBe(
      'transient_network',
    );
  });

  it.each([
    ['deadline exceeded', 'timeout'],
    ['request timed out', 'timeout'],
    ['overloaded_error: try later', 'overloaded'],
    ['insufficient_quota', 'rate_limit'],
    ['billing_hard_limit_reached', 'rate_limit'],
    ['rate limit reached', 'rate_limit'],
    ['invalid_api_key provided', 'auth'],
    ['authentication_error', 'auth'],
    ['model_not_found', 'not_found'],
    ['not_found_error', 'not_found'],
    ['circuit_open for upstream', 'circuit_open'],
    ['api_error: internal', 'server_error'],
  ])('maps the provider string %j to %s', (message, category) => {
    expect(classifyError(new Error(message))).toBe(category);
  });

  it.each([
    'connection reset by peer',
    'connection refused',
    'connection closed before message completed',
    'broken pipe',
    'dns error: no such host',
    'stream error',
    'unexpected eof',
    'unexpected EOF in body',
    'socket hang up',
    'read ECONNRESET',
  ])('maps the transport phrase %j to transient_network', (message) => {
    expect(classifyError(new Error(message))).toBe('transient_network');
  });

  it.each(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN'])(
    'maps the Node error code %s to transient_network',
    (code) => {
      expect(classifyError(withFields('request failed', { code }))).toBe('transient_network');
    },
  );

  it('classifies the Node code ETIMEDOUT as a timeout', () => {
    expect(classifyError(withFields('request failed', { code: 'ETIMEDOUT' }))).toBe('timeout');
  });

  it('classifies an AbortError as cancelled and a TimeoutError as timeout', () => {
    expect(classifyError(new DOMException('aborted', 'AbortError'))).toBe('cancelled');
    expect(classifyError(withFields('x', { name: 'AbortError' }))).toBe('cancelled');
    expect(classifyError(new DOMException('signal timed out', 'TimeoutError'))).toBe('timeout');
  });

  it('classifies our own errors first', () => {
    expect(classifyError(new ToolTimeoutError('t', 5))).toBe('timeout');
    expect(classifyError(new CancelledError('HTTP 503 while cancelling'))).toBe('cancelled');
  });

  it('lets an explicit category field win', () => {
    expect(classifyError(withFields('HTTP 503', { category: 'resource_busy' }))).toBe(
      'resource_busy',
    );
    expect(classifyError({ category: 'egress_blocked' })).toBe('egress_blocked');
    // An unknown category word is ignored.
    expect(classifyError(withFields('socket hang up', { category: 'weird' }))).toBe(
      'transient_network',
    );
  });

  it('reads the text of a thrown value that is not an Error', () => {
    expect(classifyError('socket hang up')).toBe('transient_network');
  });

  it('falls back to generic', () => {
    expect(classifyError(new Error('invalid path'))).toBe('generic');
    expect(classifyError(new ToolDefinitionError('bad', { rule: 'x' }))).toBe('generic');
    expect(classifyError('plain string')).toBe('generic');
    expect(classifyError(undefined)).toBe('generic');
    expect(classifyError(null)).toBe('generic');
  });

  it('reads only own fields, never inherited ones', () => {
    const inherited = Object.create({ status: 503, category: 'overloaded' });
    expect(classifyError(inherited)).toBe('generic');
  });
});
