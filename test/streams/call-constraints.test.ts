import { describe, expect, it } from 'vitest';
import { createToolRegistry } from '../../src/index.js';
import { callConstraint } from '../../src/streams/call-constraints.js';
import { recordingTool } from '../../src/testing/index.js';

const registry = createToolRegistry([
  recordingTool({
    name: 'write',
    safety: { sideEffectLevel: 'workspace_write', filesystem: true },
    resourceParams: ['path'],
  }).tool,
]);

function nestedPaths(depth: number): string {
  return `{"path":${'['.repeat(depth)}"a"${']'.repeat(depth)}}`;
}

describe('callConstraint', () => {
  it('keys a call by the resources its arguments name, arrays included', () => {
    expect(
      callConstraint(registry, { name: 'write', arguments: { path: ['./a/', ['b']] } as never }),
    ).toEqual({ exclusive: false, keys: ['resource:a', 'resource:b'] });
  });

  it('runs a call alone when its resources nest too deep to read, however deep', () => {
    expect(callConstraint(registry, { name: 'write', arguments: nestedPaths(9) })).toEqual({
      exclusive: true,
      keys: [],
    });
    expect(callConstraint(registry, { name: 'write', arguments: nestedPaths(100_000) })).toEqual({
      exclusive: true,
      keys: [],
    });
  });

  it('runs a call alone when it names too many resources', () => {
    const path = Array.from({ length: 1_000 }, (_, index) => `f${index}`);
    expect(callConstraint(registry, { name: 'write', arguments: { path } })).toMatchObject({
      exclusive: true,
    });
  });
});
