import type { AgentInputItem, AgentOutputItem, ModelRequest } from '@openai/agents-core';
import { isPlainObject } from 'switchyard/tools';

/**
 * The key of a carried call's argument text: `{"switchyard_unlisted_call":{"name":…,"arguments":…}}`.
 * A call the Runner would answer itself (a name the agent does not list, or arguments that are not
 * JSON) travels under the name of a Switchyard tool the agent lists, with this text; the model
 * never sees it, as every request restores the call as the model wrote it.
 */
const UNLISTED_CALL_KEY = 'switchyard_unlisted_call';
const CARRIED_PREFIX = `{"${UNLISTED_CALL_KEY}":`;

/** What a carried call holds: the model's own name and argument text. */
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
 * The call a carried call's argument text holds, or null for any other text. An item of
 * `result.history` or `result.newItems` whose arguments this reads is a call the model made under
 * the name and text it returns.
 */
export function unlistedCallOf(argumentsText: string): UnlistedCall | null {
  if (!argumentsText.startsWith(CARRIED_PREFIX)) return null;
  try {
    const carried: unknown = (JSON.parse(argumentsText) as Record<string, unknown>)[
      UNLISTED_CALL_KEY
    ];
    if (
      isPlainObject(carried) &&
      typeof carried.name === 'string' &&
      typeof carried.arguments === 'string'
    ) {
      return { name: carried.name, arguments: carried.arguments };
    }
  } catch {
    // Text of the model's own that only starts like a carried call.
  }
  return null;
}

/**
 * A model's output with every call the Runner would refuse carried under a Switchyard tool's
 * name: names not in `listed` (under the first of `ours` the request lists), and unparseable
 * arguments to a tool of `ours` (under its own name). With no tool of `ours` listed there is
 * nothing to carry under, and namespaced calls (the Responses API's tool namespaces) are the
 * Runner's: both are left as they are.
 */
export function passUnlistedCalls(
  output: readonly AgentOutputItem[],
  listed: () => ReadonlySet<string>,
  ours: ReadonlySet<string>,
): AgentOutputItem[] {
  let names: ReadonlySet<string> | undefined;
  return output.map((item) => {
    if (item.type !== 'function_call' || item.namespace !== undefined) return item;
    names ??= listed();
    const under = !names.has(item.name)
      ? firstListed(ours, names)
      : ours.has(item.name) && !parses(item.arguments)
        ? item.name
        : null;
    if (under === null) return item;
    const carried: UnlistedCall = { name: item.name, arguments: item.arguments };
    return { ...item, name: under, arguments: JSON.stringify({ [UNLISTED_CALL_KEY]: carried }) };
  });
}

/** The first of `ours` that `offered` lists, or null. */
function firstListed(ours: ReadonlySet<string>, offered: ReadonlySet<string>): string | null {
  for (const name of ours) if (offered.has(name)) return name;
  return null;
}

/**
 * The model's input with every carried call (and its result) back under the name and text the
 * model wrote, so the model reads its own transcript. The input itself when nothing was carried.
 */
export function restoreUnlistedCalls(input: ModelRequest['input']): ModelRequest['input'] {
  if (typeof input === 'string') return input;
  const names = new Map<string, string>();
  for (const item of input) {
    if (item.type !== 'function_call') continue;
    const carried = unlistedCallOf(item.arguments);
    if (carried !== null) names.set(item.callId, carried.name);
  }
  if (names.size === 0) return input;
  return input.map((item): AgentInputItem => {
    if (item.type === 'function_call') {
      const carried = unlistedCallOf(item.arguments);
      return carried === null
        ? item
        : { ...item, name: carried.name, arguments: carried.arguments };
    }
    if (item.type !== 'function_call_result') return item;
    const name = names.get(item.callId);
    return name === undefined ? item : { ...item, name };
  });
}
