import type { ToolRegistry } from 'switchyard';
import { InvalidOptionError } from 'switchyard';
import type { AnyTool } from 'switchyard/tools';
import type { ToolSearchSettings } from './tool-search-config.js';

/**
 * The tools kept out of the model's list until a search surfaces them, after the pre-flight
 * checks both modes share: every `alwaysLoaded` name is a tool, and at least one tool stays loaded
 * (a request with only deferred tools is refused by the providers).
 * @throws InvalidOptionError naming `toolSearch.alwaysLoaded` or `tools`.
 */
export function deferredTools(tools: ToolRegistry, settings: ToolSearchSettings): AnyTool[] {
  for (const name of settings.alwaysLoaded) {
    if (!tools.has(name)) {
      throw new InvalidOptionError(
        'toolSearch.alwaysLoaded',
        `agentLoop: toolSearch.alwaysLoaded names no tool: "${name}"`,
      );
    }
  }
  const pinned = new Set(settings.alwaysLoaded);
  const deferred = tools.list().filter((tool) => tool.deferLoading && !pinned.has(tool.name));
  if (deferred.length === tools.size) {
    throw new InvalidOptionError(
      'tools',
      'agentLoop: every tool has deferLoading set; at least one tool must be non-deferred (or listed in toolSearch.alwaysLoaded)',
    );
  }
  return deferred;
}
