import type { AgentInputItem, AgentOutputItem, ModelRequest } from '@openai/agents-core';
import { isPlainObject } from '../../tools/json.js';

/**
 * The hidden tool that carries, under the Runner, a call the Runner would answer itself: a name
 * the agent does not list, or (for a Switchyard tool) arguments that are not JSON. The model never
 * sees it: it is dropped from every request, and calls rewritten to it are restored.
 */
export const UNLISTED_CALL_TOOL = 'switchyard_unlisted_call';

/** What a rewritten call carries: the model's own name and argument text. */
export interface UnlistedCall {
  readonly name: string;
  readonly arguments: string;
}

/** The tools and handoffs a request offers the model, by the name the model calls them. */
export function listedNames(request: ModelRequest): Set<string> {
  const names = new Set<string>();
  for (const tool of request.tools) names.add(tool.name);
  for (const handoff of request.handoffs) names.add(handoff.toolName);
  return names;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A model's output with every call the Runner would refuse rewritten to the hidden tool: names
 * not in `listed`, and unparseable arguments to a tool `ours` owns. Namespaced calls (the
 * Responses API's tool namespaces) are left to the Runner.
 */
export function passUnlistedCalls(
  output: readonly AgentOutputItem[],
  listed: ReadonlySet<string>,
  ours: ReadonlySet<string>,
): AgentOutputItem[] {
  return output.map((item) => {
    if (item.type !== 'function_call' || item.namespace !== undefined) return item;
    const refused = !listed.has(item.name) || (ours.has(item.name) && !parses(item.arguments));
    if (!refused || item.name === UNLISTED_CALL_TOOL) return item;
    const carried: UnlistedCall = { name: item.name, arguments: item.arguments };
    return { ...item, name: UNLISTED_CALL_TOOL, arguments: JSON.stringify(carried) };
  });
}

/** The call a rewritten item carries, or null for any other item. */
export function unlistedCallOf(argumentsText: string): UnlistedCall | null {
  try {
    const carried: unknown = JSON.parse(argumentsText);
    if (
      isPlainObject(carried) &&
      typeof carried.name === 'string' &&
      typeof carried.arguments === 'string'
    ) {
      return { name: carried.name, arguments: carried.arguments };
    }
  } catch {
    // Not ours: the model called the hidden name itself with text of its own.
  }
  return null;
}

/**
 * The model's input with every rewritten call (and its result) back under the name and text the
 * model wrote, so the model reads its own transcript.
 */
export function restoreUnlistedCalls(input: ModelRequest['input']): ModelRequest['input'] {
  if (typeof input === 'string') return input;
  const names = new Map<string, string>();
  const restored = input.map((item): AgentInputItem => {
    if (item.type !== 'function_call' || item.name !== UNLISTED_CALL_TOOL) return item;
    const carried = unlistedCallOf(item.arguments);
    if (carried === null) return item;
    names.set(item.callId, carried.name);
    return { ...item, name: carried.name, arguments: carried.arguments };
  });
  if (names.size === 0) return input;
  return restored.map((item) => {
    if (item.type !== 'function_call_result') return item;
    const name = names.get(item.callId);
    return name === undefined ? item : { ...item, name };
  });
}
