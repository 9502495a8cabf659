import type { ModelClient } from 'switchyard';
import { InvalidOptionError } from 'switchyard';
import type { ToolSearchHook } from 'switchyard/agent';
import { clientToolSearch } from './client-tool-search.js';
import { nativeToolSearch } from './native-tool-search.js';
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
    runsNatively(settings, model)
      ? nativeToolSearch(tools, settings, model, emit)
      : clientToolSearch(tools, { ...settings, mode: 'client' }, session, emit);
}

/**
 * Native when asked for (`mode: 'native'`), or in `auto` when the provider runs the variant
 * itself (`model.nativeToolSearch`) and no option only the loop can honour is set
 * (`budgetTokens`, `includeStubListing`). Throws `InvalidOptionError` for `native` where the
 * provider cannot.
 */
function runsNatively(settings: ToolSearchSettings, model: ModelClient): boolean {
  const variant = settings.variant;
  const supported =
    (variant === 'bm25' || variant === 'regex') && (model.nativeToolSearch ?? []).includes(variant);
  if (settings.mode === 'native' && !supported) {
    throw new InvalidOptionError(
      'toolSearch.mode',
      `agentLoop: toolSearch.mode "native" needs a provider that runs the ${typeof variant === 'string' ? variant : 'custom'} variant itself; provider "${model.provider}" does not (use "auto" or "client")`,
    );
  }
  if (settings.mode === 'auto') {
    return supported && settings.budgetTokens === undefined && !settings.includeStubListing;
  }
  return settings.mode === 'native';
}
