import { InvalidOptionError } from '../errors.js';
import type { ModelClient } from '../providers/model-client.js';
import type { ToolSearchSettings } from '../vault/tool-search-config.js';

/**
 * Resolves `auto` for this model: the loop runs the search itself (client mode) until a provider
 * adapter declares native tool search. Throws `InvalidOptionError` for `native` on such a model.
 */
export function checkSearchMode(
  settings: ToolSearchSettings,
  model: ModelClient,
): ToolSearchSettings {
  if (settings.mode === 'native') {
    throw new InvalidOptionError(
      'toolSearch.mode',
      `agentLoop: toolSearch.mode "native" is not supported by provider "${model.provider}" here; use "auto" or "client"`,
    );
  }
  return settings.mode === 'auto' ? { ...settings, mode: 'client' } : settings;
}
