import { describe, expect, it } from 'vitest';
import { createSecretScrubber } from '../../src/dispatch/secret-scrubber.js';

const scrubber = createSecretScrubber({ TOKEN: 'tok-123', LONGER: 'tok-123-extended', EMPTY: '' });

describe('createSecretScrubber', () => {
  it('is null without secret values', () => {
    expect(createSecretScrubber(undefined)).toBeNull();
    expect(createSecretScrubber({ EMPTY: '' })).toBeNull();
  });

  it('replaces every occurrence, the longest secret first', () => {
    expect(scrubber?.text('a tok-123 b tok-123-extended c tok-123')).toBe(
      'a [redacted:TOKEN] b [redacted:LONGER] c [redacted:TOKEN]',
    );
  });

  it('returns a value holding no secret as it is', () => {
    const value = { a: [1, 'two', { three: null }] };
    expect(scrubber?.value(value)).toBe(value);
  });

  it('copies a value holding a secret, keeping cycles and plain-data keys', () => {
    const value: Record<string, unknown> = { note: 'key tok-123', when: new Date(0) };
    value.self = value;
    Object.defineProperty(value, '__proto__', { value: 'tok-123', enumerable: true });
    const copy = scrubber?.value(value) as Record<string, unknown>;
    expect(copy).not.toBe(value);
    expect(copy.note).toBe('key [redacted:TOKEN]');
    expect(copy.self).toBe(copy);
    expect(copy.when).toBe('1970-01-01T00:00:00.000Z');
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toBe('[redacted:TOKEN]');
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(value.note).toBe('key tok-123');
  });

  it('walks a value nested a million deep without recursion', () => {
    let value: unknown = 'tok-123';
    for (let level = 0; level < 1_000_000; level += 1) value = [value];
    let copy = scrubber?.value(value);
    for (let level = 0; level < 1_000_000; level += 1) copy = (copy as unknown[])[0];
    expect(copy).toBe('[redacted:TOKEN]');
  });

  it('scrubs what a toJSON returns', () => {
    const value = { inner: { toJSON: () => 'tok-123' } };
    expect(scrubber?.value(value)).toEqual({ inner: '[redacted:TOKEN]' });
  });
});
