import type { ToolSearchHook } from '../agent/tool-search-hook.js';
import { InvalidOptionError } from '../errors.js';
import type { ModelClient } from '../providers/model-client.js';
import { clientToolSearch } from './client-tool-search.js';
import {
  type ToolSearchOption,
  type ToolSearchSettings,
  toolSearchSettings,
} from './tool-search-config.js';

/**
 * Tool search for `agentLoop({ toolSearch: toolSearch({ … }) })`: tools with `deferLoading` stay
 * out of the model's tool list until a search finds them. `toolSearch()` is bm25 in mode auto.
 * Options are checked here; the tools (at least one must be non-deferred, `alwaysLoaded` names
 * must exist) when the run starts, before any request.
 * @throws InvalidOptionError naming the option (`toolSearch.budgetTokens`, …) when one is invalid.
 * @example
 * await agentLoop({ task, model, tools, toolSearch: toolSearch({ variant: 'hybrid', budgetTokens: 8000 }) });
 */
export function toolSearch(option: ToolSearchOption = true): ToolSearchHook {
  const settings = toolSearchSettings(option);
  if (settings === null)
    throw new InvalidOptionError(
      'toolSearch',
      'toolSearch(false): leave the agentLoop option out instead',
    );
  return ({ tools, model, session, emit }) =>
    clientToolSearch(tools, resolveMode(settings, model), session, emit);
}

/**
 * `auto` runs the search in the loop (client mode) until a provider adapter declares native tool
 * search; `native` throws for now.
 */
function resolveMode(settings: ToolSearchSettings, model: ModelClient): ToolSearchSettings {
  if (settings.mode === 'native') {
    throw new InvalidOptionError(
      'toolSearch.mode',
      `agentLoop: toolSearch.mode "native" is not supported by provider "${model.provider}" here; use "auto" or "client"`,
    );
  }
  return settings.mode === 'auto' ? { ...settings, mode: 'client' } : settings;
}
