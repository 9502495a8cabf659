import { describe, expect, it } from 'vitest';
import { MissingPeerDependencyError } from '../src/errors.js';
import { requireOptionalPeer } from '../src/optional-peer.js';
import { thrownBy } from './support/thrown-by.js';

describe('requireOptionalPeer', () => {
  it('returns an installed package', () => {
    const { OpenAI } = requireOptionalPeer<typeof import('openai')>('openai', 'a test');
    expect(typeof OpenAI).toBe('function');
  });

  it('names the package to install when it is missing', () => {
    const error = thrownBy(() => requireOptionalPeer('switchyard-no-such-peer', 'the feature'));
    expect(MissingPeerDependencyError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'SY_ERR_MISSING_PEER_DEPENDENCY',
      packageName: 'switchyard-no-such-peer',
      feature: 'the feature',
    });
    expect((error as Error).message).toContain('npm install switchyard-no-such-peer');
  });
});
