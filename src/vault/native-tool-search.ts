import type { ToolSearchView } from '../agent/tool-search-hook.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { deferredTools } from './deferred-tools.js';
import type { ToolSearchSettings } from './tool-search-config.js';

/**
 * Provider-side tool search: the eager tools (and `alwaysLoaded`) are shown as usual, the deferred
 * ones travel with the request (`defer_loading`), and the provider's own search tool loads them.
 * The provider records its search calls as hosted calls (`providerNative` on the turn).
 * Throws `InvalidOptionError` when every tool is deferred or an `alwaysLoaded` name is unknown.
 */
export function nativeToolSearch(
  tools: ToolRegistry,
  settings: ToolSearchSettings,
): ToolSearchView {
  const deferred = deferredTools(tools, settings);
  const deferredNames = new Set(deferred.map((tool) => tool.name));
  const namespaces = new Map(deferred.map((tool) => [tool.name, tool.namespace]));
  const definitions = tools
    .modelDefinitions(deferredNames)
    .filter((definition) => deferredNames.has(definition.canonicalName))
    .map((definition) => {
      const namespace = namespaces.get(definition.canonicalName);
      return namespace === undefined ? definition : { ...definition, namespace };
    });
  const variant = settings.variant === 'regex' ? 'regex' : 'bm25';
  return {
    registry: tools,
    definitions: async () => tools.modelDefinitions(settings.alwaysLoaded),
    system: (base) => base,
    native: { variant, deferred: definitions },
  };
}
