import type { JsonObject, ToolRegistry } from 'switchyard';
import { InvalidOptionError } from 'switchyard';
import type { SessionActor } from 'switchyard/actors';
import type { ToolSearchEvent, ToolSearchView } from 'switchyard/agent';
import type { AnyTool } from 'switchyard/tools';
import { createToolSearch, type ToolSearch } from './create-tool-search.js';
import { deferredTools } from './deferred-tools.js';
import { stubListing } from './stub-listing.js';
import type { ToolSearchSettings } from './tool-search-config.js';

/** Rough tokens of a tool's definition: its JSON length / 4. */
function tokenCost(tool: AnyTool): number {
  const json = JSON.stringify({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema,
  });
  return Math.ceil(json.length / 4);
}

/**
 * Sets up client-mode tool search over `tools`: deferred tools (`deferLoading`, minus
 * `alwaysLoaded`) stay out of the tool list until the model's search promotes them (state in the
 * session actor, within `budgetTokens`); each search emits `tool_search_query` and
 * `tool_search_result`.
 * Throws `InvalidOptionError` when every tool is deferred, an `alwaysLoaded` name is unknown, or
 * the search tool's name is taken.
 */
export function clientToolSearch(
  tools: ToolRegistry,
  settings: ToolSearchSettings,
  session: SessionActor,
  emit: (event: ToolSearchEvent) => void,
): ToolSearchView {
  const deferred = deferredTools(tools, settings);
  if (tools.has(settings.name)) {
    throw new InvalidOptionError(
      'toolSearch.name',
      `agentLoop: toolSearch.name "${settings.name}" is already a tool's name`,
    );
  }
  const search: ToolSearch = createToolSearch({ tools: deferred, variant: settings.variant });
  const costs = Object.fromEntries(deferred.map((tool) => [tool.name, tokenCost(tool)]));
  const budget =
    settings.budgetTokens === undefined ? undefined : { limit: settings.budgetTokens, costs };
  const byName = new Map(deferred.map((tool) => [tool.name, tool]));
  const registry = tools.define({
    name: settings.name,
    description: searchDescription(search.variant, deferred.length),
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          minLength: 1,
          maxLength: 1000,
          description: queryHelp(search.variant),
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    safety: { readOnly: true, idempotent: true, sideEffectLevel: 'none' },
    kind: 'search',
    handler: async (args: JsonObject, runtime) => {
      const query = String(args.query);
      const common = {
        toolCallId: runtime.callId,
        strategy: search.variant,
        metadata: { mode: 'client' as const },
      };
      emit({ type: 'tool_search_query', name: settings.name, query, ...common });
      const before = await session.snapshot();
      const { hits, diagnostic } = await search.explain(query, {
        limit: settings.limit,
        promoted: before.promotedTools,
      });
      const names = hits.map((hit) => hit.name);
      const available = await session.promote(names, budget);
      const promoted = names.filter((name) => available.includes(name));
      emit({ type: 'tool_search_result', promoted, available, ...common });
      return {
        // The model calls tools by their provider-safe names (`github.search` → `github_search`).
        tool_names: promoted.map((name) => tools.aliasOf(name) ?? name),
        ranked: hits.map((hit) => ({
          name: tools.aliasOf(hit.name) ?? hit.name,
          score: Number(hit.score.toFixed(4)),
          description: (byName.get(hit.name)?.description ?? '').slice(0, 200),
        })),
        ...(diagnostic === undefined ? {} : { diagnostic }),
        ...(promoted.length < names.length
          ? { note: 'some matches did not fit the tool budget' }
          : {}),
      };
    },
  });
  return {
    registry,
    definitions: async () =>
      registry.modelDefinitions(
        (await session.snapshot()).promotedTools.concat(settings.alwaysLoaded),
      ),
    system: (base) => {
      if (!settings.includeStubListing) return base;
      const listing = stubListing(deferred, settings.name);
      return base === undefined ? listing : `${base}\n\n${listing}`;
    },
  };
}

function searchDescription(variant: string, count: number): string {
  return `Finds tools that are not loaded yet (${count} available) and loads the best matches: they become callable on your next turn. Search before saying a capability is missing. Strategy: ${variant}.`;
}

function queryHelp(variant: string): string {
  if (variant === 'regex')
    return 'A case-insensitive regular expression (RE2 syntax, at most 200 characters) matched against tool names, descriptions and parameter names.';
  return 'What you need to do, in a few words (for example "read a file", "send an email"), or a tool name.';
}
