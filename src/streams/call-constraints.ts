import type { ProposedCall } from '../dispatch/proposed-call.js';
import { isPlainObject } from '../tools/json.js';
import type { AnyTool, ToolRegistry } from '../tools/tool-registry.js';

/** What keeps a call from running beside its siblings. */
export interface CallConstraint {
  /** Runs alone: waits for running siblings, and nothing starts while it runs. */
  readonly exclusive: boolean;
  /** Calls sharing any key never overlap and run in planner order. Empty: no conflict. */
  readonly keys: readonly string[];
}

/** No constraint: the call may run beside anything. */
export const FREE: CallConstraint = Object.freeze({ exclusive: false, keys: Object.freeze([]) });
const EXCLUSIVE: CallConstraint = Object.freeze({ exclusive: true, keys: Object.freeze([]) });

/** Argument names that name a file when a filesystem tool declares no `resourceParams`. */
const FALLBACK_PATH_PARAMS = [
  'path',
  'paths',
  'file',
  'files',
  'filepath',
  'file_path',
  'target_path',
  'source_path',
  'folder',
  'dir',
  'directory',
];

/** Longest argument text parsed here; longer text makes the call run alone. */
const MAX_PARSED_CHARS = 1 << 20;

function argumentsOf(call: ProposedCall): Record<string, unknown> | null | 'too_long' {
  const raw = call.arguments;
  if (isPlainObject(raw)) return raw;
  if (typeof raw !== 'string') return null;
  if (raw.length > MAX_PARSED_CHARS) return 'too_long';
  try {
    const parsed: unknown = JSON.parse(raw);
    return isPlainObject(parsed) ? parsed : null;
  } catch {
    // Unparseable arguments never run: the call needs no lane.
    return null;
  }
}

/** Most array levels a resource argument may nest (`paths: [[…]]`) before the call runs alone. */
const MAX_RESOURCE_DEPTH = 8;
/** Most resources one argument may name before the call runs alone. */
const MAX_RESOURCES = 256;

/** `./a/b` and `a/b` name one resource. */
function normalizeResource(value: string): string {
  return value
    .trim()
    .replace(/^(\.\/)+/, '')
    .replace(/\/+$/, '');
}

/**
 * The resources an argument names (a string, a number, or arrays of them), walked without
 * recursion; null when it nests or names too much to tell, so the call must run alone.
 */
function resourcesIn(value: unknown, into: string[]): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const current = item.value;
    if (typeof current === 'string') into.push(`resource:${normalizeResource(current)}`);
    else if (typeof current === 'number' || typeof current === 'boolean')
      into.push(`resource:${String(current)}`);
    else if (Array.isArray(current)) {
      if (item.depth >= MAX_RESOURCE_DEPTH || current.length > MAX_RESOURCES) return false;
      for (let index = current.length - 1; index >= 0; index -= 1)
        pending.push({ value: current[index], depth: item.depth + 1 });
    }
    if (into.length > MAX_RESOURCES) return false;
  }
  return true;
}

/**
 * How a call must be scheduled among its siblings, from its tool's safety metadata:
 * - `requiresConfirmation` → exclusive (never beside a sibling);
 * - an `exclusiveLane` → that lane's key, whatever the tool's effects;
 * - read-only or idempotent tools → free;
 * - other tools → one key per resource their `resourceParams` (or, for filesystem tools, the usual
 *   path arguments) name: calls touching the same resource run one after another.
 * Unknown tools are free: the executor refuses them without running anything. Resource arguments
 * too deep or too many to read (or that cannot be read at all) make the call exclusive: a call
 * whose resources are unknown may touch any of them. Never throws.
 */
export function callConstraint(registry: ToolRegistry, call: ProposedCall): CallConstraint {
  return constraintFor(
    typeof call.name === 'string' ? registry.resolve(call.name) : undefined,
    call,
  );
}

/** `callConstraint` of a call whose tool was already looked up (undefined: unknown). */
export function constraintFor(tool: AnyTool | undefined, call: ProposedCall): CallConstraint {
  try {
    return constraintOf(tool, call);
  } catch {
    return EXCLUSIVE;
  }
}

function constraintOf(tool: AnyTool | undefined, call: ProposedCall): CallConstraint {
  if (tool === undefined) return FREE;
  if (tool.safety.requiresConfirmation) return EXCLUSIVE;
  const mutating = !tool.safety.readOnly && (!tool.safety.idempotent || tool.safety.destructive);
  if (tool.exclusiveLane === undefined && !mutating) return FREE;
  const keys: string[] = tool.exclusiveLane === undefined ? [] : [`lane:${tool.exclusiveLane}`];
  const params = tool.resourceParams ?? (tool.safety.filesystem ? FALLBACK_PATH_PARAMS : []);
  if (mutating && params.length > 0) {
    const args = argumentsOf(call);
    if (args === 'too_long') return EXCLUSIVE;
    if (args !== null) {
      for (const param of params) {
        if (Object.hasOwn(args, param) && !resourcesIn(args[param], keys)) return EXCLUSIVE;
      }
    }
  }
  return keys.length === 0 ? FREE : { exclusive: false, keys };
}
