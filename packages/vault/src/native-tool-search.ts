import type { ModelClient, ToolRegistry } from 'switchyard';
import type { ToolSearchEvent, ToolSearchView } from 'switchyard/agent';
import { deferredTools } from './deferred-tools.js';
import type { ToolSearchSettings } from './tool-search-config.js';

/**
 * Provider-side tool search: the eager tools (and `alwaysLoaded`) are shown as usual, the deferred
 * ones travel with the request (`defer_loading`), and the provider's own search tool loads them.
 * The provider records its search calls as hosted calls (`providerNative` on the turn); each
 * search it reports in a turn's recorded response (`model.toolSearchesOf`) is emitted as
 * `tool_search_query` and `tool_search_result`, shaped as in client mode (`mode: 'native'`). A
 * tool the provider loaded stays loaded for the rest of the conversation: `available` only grows.
 * Throws `InvalidOptionError` when every tool is deferred or an `alwaysLoaded` name is unknown.
 */
export function nativeToolSearch(
  tools: ToolRegistry,
  settings: ToolSearchSettings,
  model: ModelClient,
  emit: (event: ToolSearchEvent) => void,
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
  // The provider names loaded tools as they were sent: provider-safe aliases.
  const canonical = new Map(
    definitions.map((definition) => [definition.name, definition.canonicalName]),
  );
  const variant = settings.variant === 'regex' ? 'regex' : 'bm25';
  const available: string[] = [];
  return {
    registry: tools,
    definitions: async () => tools.modelDefinitions(settings.alwaysLoaded),
    system: (base) => base,
    native: { variant, deferred: definitions },
    recorded: (content) => {
      for (const search of model.toolSearchesOf?.(content) ?? []) {
        const common = {
          toolCallId: search.toolCallId,
          strategy: variant,
          metadata: { mode: 'native' as const },
        };
        emit({ type: 'tool_search_query', name: search.name, query: search.query, ...common });
        const promoted = [...new Set(search.loaded.flatMap((name) => canonical.get(name) ?? []))];
        for (const name of promoted) if (!available.includes(name)) available.push(name);
        emit({ type: 'tool_search_result', promoted, available: [...available], ...common });
      }
    },
  };
}
