import { createRequire } from 'node:module';
import { MissingPeerDependencyError } from './errors.js';

// Provider SDKs are optional peers: only the subpath that needs one loads it, and only when a
// client is built, so a missing package surfaces as a typed error naming what to install.
const requireFromHere = createRequire(import.meta.url);

/**
 * Loads the optional peer `packageName` for `feature`.
 * @throws MissingPeerDependencyError when the package is not installed.
 */
export function requireOptionalPeer<T>(packageName: string, feature: string): T {
  try {
    return requireFromHere(packageName) as T;
  } catch (error) {
    if (isMissing(error, packageName)) {
      throw new MissingPeerDependencyError(packageName, feature, { cause: error });
    }
    throw error;
  }
}

function isMissing(error: unknown, packageName: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    code === 'MODULE_NOT_FOUND' && typeof message === 'string' && message.includes(packageName)
  );
}
