import { InvalidOptionError } from 'switchyard';
import type { ToolSearchVariant } from './search-types.js';

/** Where a search runs: the provider's own (`native`), the loop (`client`), or native when the provider has it (`auto`). */
export type ToolSearchMode = 'auto' | 'native' | 'client';

/** The `toolSearch` option of `agentLoop`. */
export interface ToolSearchConfig {
  /** `bm25` (default), `regex`, `hybrid`, a function or `{ name?, handler }`. Custom and hybrid run in the loop. */
  readonly variant?: ToolSearchVariant;
  /** Default `auto`. */
  readonly mode?: ToolSearchMode;
  /** Name of the search tool the model calls in client mode. Default `tool_search`. */
  readonly name?: string;
  /** Tools kept in view from the start even when they set `deferLoading`. Default none. */
  readonly alwaysLoaded?: readonly string[];
  /** Soft cap on the promoted tools' schema size (≈ JSON length / 4); the oldest promoted go first. Default none. */
  readonly budgetTokens?: number;
  /** Lists the deferred tools' names and first sentences in the system prompt. Default false. */
  readonly includeStubListing?: boolean;
  /** Tools one search promotes at most. Default 5. */
  readonly limit?: number;
}

/** `true` (bm25, auto), a built-in variant's name, or the full config. */
export type ToolSearchOption = boolean | 'bm25' | 'regex' | 'hybrid' | ToolSearchConfig;

/** A checked `toolSearch` option with every default decided. */
export interface ToolSearchSettings {
  readonly variant: ToolSearchVariant;
  readonly mode: ToolSearchMode;
  readonly name: string;
  readonly alwaysLoaded: readonly string[];
  readonly budgetTokens: number | undefined;
  readonly includeStubListing: boolean;
  readonly limit: number;
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

function fail(option: string, message: string): never {
  throw new InvalidOptionError(
    `toolSearch.${option}`,
    `agentLoop: toolSearch.${option} ${message}`,
  );
}

/** Checks and completes the option; `null` when tool search is off. Throws `InvalidOptionError` naming the field. */
export function toolSearchSettings(
  option: ToolSearchOption | undefined,
): ToolSearchSettings | null {
  if (option === undefined || option === false) return null;
  const config: ToolSearchConfig =
    option === true ? {} : typeof option === 'string' ? { variant: option } : option;
  if (typeof config !== 'object' || config === null)
    fail('variant', 'must be true, a variant name or an object');
  const variant = config.variant ?? 'bm25';
  if (typeof variant === 'string' && !['bm25', 'regex', 'hybrid'].includes(variant)) {
    fail('variant', `must be bm25, regex, hybrid, a function or { handler }; got "${variant}"`);
  }
  if (typeof variant === 'object' && typeof variant?.handler !== 'function') {
    fail('variant', 'must be a function or { name?, handler: function } when custom');
  }
  const mode = config.mode ?? 'auto';
  if (!['auto', 'native', 'client'].includes(mode))
    fail('mode', `must be auto, native or client; got "${mode}"`);
  const name = config.name ?? 'tool_search';
  if (typeof name !== 'string' || !NAME.test(name))
    fail('name', 'must match ^[a-zA-Z0-9_-]{1,64}$');
  const alwaysLoaded = config.alwaysLoaded ?? [];
  if (!Array.isArray(alwaysLoaded) || alwaysLoaded.some((entry) => typeof entry !== 'string')) {
    fail('alwaysLoaded', 'must be an array of tool names');
  }
  const budget = config.budgetTokens;
  if (budget !== undefined && (!Number.isFinite(budget) || budget <= 0))
    fail('budgetTokens', 'must be a number > 0');
  const limit = config.limit ?? 5;
  if (!Number.isInteger(limit) || limit < 1 || limit > 50)
    fail('limit', 'must be an integer from 1 to 50');
  if (config.includeStubListing !== undefined && typeof config.includeStubListing !== 'boolean') {
    fail('includeStubListing', 'must be a boolean');
  }
  return {
    variant,
    mode,
    name,
    alwaysLoaded,
    budgetTokens: budget,
    includeStubListing: config.includeStubListing ?? false,
    limit,
  };
}
