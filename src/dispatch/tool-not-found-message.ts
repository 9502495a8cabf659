import type { AnyTool, ToolRegistry } from '../tools/tool-registry.js';
import { isAdvertised } from './call-state.js';
import { closestName } from './closest-name.js';

const MAX_LISTED_TOOLS = 50;

/**
 * The model-facing text of an unknown tool: the closest advertised name, and the names it may use
 * instead (every tool advertised this turn, `advertised` null meaning every non-deferred tool).
 */
export function toolNotFoundMessage(
  name: string,
  registry: ToolRegistry,
  advertised: ReadonlySet<string> | null,
): string {
  const available = registry
    .list()
    .filter((candidate: AnyTool) => isAdvertised(candidate, advertised))
    .map((candidate) => candidate.name);
  const listed = available.slice(0, MAX_LISTED_TOOLS).join(', ');
  const more = available.length > MAX_LISTED_TOOLS ? `, … (${available.length} in all)` : '';
  const guess = closestName(name, available);
  const hint = guess === null ? '' : ` Did you mean ${JSON.stringify(guess)}?`;
  return `Unknown tool ${JSON.stringify(name)}.${hint} Available tools: ${listed === '' ? '(none)' : listed}${more}.`;
}
