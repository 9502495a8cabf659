import { InvalidOptionError } from 'switchyard';
import type { SearchIndexOptions } from './search-index.js';

/** Chosen on half the dev queries of the tool-search benchmark; see docs/tool-vault.md. */
export const DEFAULT_NAMESPACE_DECAY = 0.8;

const isNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/**
 * Checks the ranking options of `createToolSearch` and returns the namespace decay to use.
 * Throws `InvalidOptionError` naming the option: `k1` must be > 0, `b` in [0, 1], each weight
 * ≥ 0 with at least one above 0, `namespaceDecay` in (0, 1].
 */
export function checkSearchOptions(
  options: SearchIndexOptions & { readonly namespaceDecay?: number },
): number {
  const { k1, b, weights, namespaceDecay } = options;
  if (k1 !== undefined && !(isNumber(k1) && k1 > 0))
    throw new InvalidOptionError('k1', 'k1 must be a number > 0');
  if (b !== undefined && !(isNumber(b) && b >= 0 && b <= 1))
    throw new InvalidOptionError('b', 'b must be a number in [0, 1]');
  if (weights !== undefined) {
    const values = [weights?.name, weights?.description, weights?.parameters];
    if (!values.every((value) => isNumber(value) && value >= 0) || !values.some((v) => v !== 0)) {
      throw new InvalidOptionError(
        'weights',
        'weights must be { name, description, parameters }, numbers ≥ 0, not all 0',
      );
    }
  }
  const decay = namespaceDecay ?? DEFAULT_NAMESPACE_DECAY;
  if (!(isNumber(decay) && decay > 0 && decay <= 1))
    throw new InvalidOptionError('namespaceDecay', 'namespaceDecay must be a number in (0, 1]');
  return decay;
}
