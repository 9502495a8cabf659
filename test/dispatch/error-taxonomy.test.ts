import { describe, expect, it } from 'vitest';
import {
  fromInternal,
  type InternalErrorCategory,
  isRecoverable,
  isTransient,
  TOOL_CALL_ERROR_CATEGORIES,
  toWireCategory,
} from '../../src/dispatch/error-taxonomy.js';

const INTERNAL: Record<InternalErrorCategory, string> = {
  timeout: 'timeout',
  rate_limit: 'network',
  overloaded: 'network',
  server_error: 'network',
  transient_network: 'network',
  resource_busy: 'resource_busy',
  schema_validation: 'schema_validation',
  schema_stream_aborted: 'schema_validation',
  tool_error: 'tool_error',
  tool_rejected: 'permission_denied',
  cancelled: 'cancelled',
  auth: 'host_bridge_error',
  egress_blocked: 'host_bridge_error',
  channel_closed: 'host_bridge_error',
  not_found: 'host_bridge_error',
  circuit_open: 'host_bridge_error',
  budget_exceeded: 'host_bridge_error',
  internal: 'host_bridge_error',
  environment: 'host_bridge_error',
  generic: 'host_bridge_error',
};

describe('fromInternal', () => {
  it.each(Object.entries(INTERNAL))('maps %s to %s', (internal, wire) => {
    expect(fromInternal(internal as InternalErrorCategory)).toBe(wire);
  });
});

describe('isRecoverable', () => {
  it('is true only for schema_validation', () => {
    const recoverable = TOOL_CALL_ERROR_CATEGORIES.filter(isRecoverable);
    expect(recoverable).toEqual(['schema_validation']);
  });
});

describe('isTransient', () => {
  it('is true for timeout, rate_limit, overloaded, server_error and transient_network only', () => {
    const transient = (Object.keys(INTERNAL) as InternalErrorCategory[]).filter(isTransient);
    expect(transient.sort()).toEqual(
      ['overloaded', 'rate_limit', 'server_error', 'timeout', 'transient_network'].sort(),
    );
  });
});

describe('toWireCategory', () => {
  it('passes wire names through', () => {
    for (const category of TOOL_CALL_ERROR_CATEGORIES)
      expect(toWireCategory(category)).toBe(category);
  });

  it.each([
    ['intra_turn_failure_fanout_collapsed', 'rejected_loop'],
    ['intra_turn_resource_fail_fast', 'rejected_loop'],
    ['tool_batch_deferred', 'rejected_loop'],
    ['tool_batch_blocked', 'rejected_loop'],
    ['tool_rejected', 'permission_denied'],
    ['consent_denied', 'permission_denied'],
    ['egress_blocked', 'permission_denied'],
    ['scope_violation', 'permission_denied'],
    ['policy_blocked', 'permission_denied'],
    ['tool_not_found', 'schema_validation'],
    ['schema_violation', 'schema_validation'],
    ['schema_stream_aborted', 'schema_validation'],
    ['validator_failure', 'schema_validation'],
    ['repair_failed', 'schema_validation'],
    ['invalid_arguments', 'schema_validation'],
    ['rate_limit', 'network'],
    ['overloaded', 'network'],
    ['server_error', 'network'],
    ['transient_network', 'network'],
    ['rate_limited', 'resource_busy'],
    ['tool_middleware_exception', 'tool_error'],
    ['tool_parallel_dispatch_exception', 'tool_error'],
    ['executor_error', 'tool_error'],
    ['exception', 'tool_error'],
    ['generic', 'tool_error'],
    ['auth', 'host_bridge_error'],
    ['channel_closed', 'host_bridge_error'],
    ['not_found', 'host_bridge_error'],
    ['circuit_open', 'host_bridge_error'],
    ['budget_exceeded', 'host_bridge_error'],
  ])('normalizes %s to %s', (word, wire) => {
    expect(toWireCategory(word)).toBe(wire);
  });

  it('turns unknown words into unknown, and no word into null', () => {
    expect(toWireCategory('dry_run')).toBe('unknown');
    expect(toWireCategory('something_new')).toBe('unknown');
    expect(toWireCategory('constructor')).toBe('unknown');
    expect(toWireCategory('__proto__')).toBe('unknown');
    expect(toWireCategory('')).toBeNull();
    expect(toWireCategory(null)).toBeNull();
    expect(toWireCategory(undefined)).toBeNull();
  });
});
