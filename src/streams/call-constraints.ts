import type { ProposedCall } from '../dispatch/proposed-call.js';
import { isPlainObject } from '../tools/json.js';
import type { ToolRegistry } from '../tools/tool-registry.js';

/** What keeps a call from running beside its siblings. */
export interface CallConstraint {
  /** Runs alone: waits for running siblings, and nothing starts while it runs. */
  readonly exclusive: boolean;
  /** Calls sharing any key never overlap and run in planner order. Empty: no conflict. */
  readonly keys: readonly string[];
}

const FREE: CallConstraint = Object.freeze({ exclusive: false, keys: Object.freeze([]) });
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

function argumentsOf(call: ProposedCall): Record<string, unknown> | null {
  const raw = call.arguments;
  if (isPlainObject(raw)) return raw;
  if (typeof raw !== 'string') return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return isPlainObject(parsed) ? parsed : null;
  } catch {
    // Unparseable arguments never run: the call needs no lane.
    return null;
  }
}

/** `./a/b` and `a/b` name one resource. */
function normalizeResource(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(normalizeResource);
  if (typeof value === 'string')
    return [
      value
        .trim()
        .replace(/^(\.\/)+/, '')
        .replace(/\/+$/, ''),
    ];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  return [];
}

/**
 * How a call must be scheduled among its siblings, from its tool's safety metadata:
 * - `requiresConfirmation` → exclusive (never beside a sibling);
 * - an `exclusiveLane` → that lane's key, whatever the tool's effects;
 * - read-only or idempotent tools → free;
 * - other tools → one key per resource their `resourceParams` (or, for filesystem tools, the usual
 *   path arguments) name: calls touching the same resource run one after another.
 * Unknown tools are free: the executor refuses them without running anything.
 */
export function callConstraint(registry: ToolRegistry, call: ProposedCall): CallConstraint {
  const tool = typeof call.name === 'string' ? registry.resolve(call.name) : undefined;
  if (tool === undefined) return FREE;
  if (tool.safety.requiresConfirmation) return EXCLUSIVE;
  const keys: string[] = tool.exclusiveLane === undefined ? [] : [`lane:${tool.exclusiveLane}`];
  const mutating = !tool.safety.readOnly && (!tool.safety.idempotent || tool.safety.destructive);
  const params = tool.resourceParams ?? (tool.safety.filesystem ? FALLBACK_PATH_PARAMS : []);
  if (mutating && params.length > 0) {
    const args = argumentsOf(call);
    if (args !== null) {
      for (const param of params) {
        if (!Object.hasOwn(args, param)) continue;
        for (const resource of normalizeResource(args[param])) keys.push(`resource:${resource}`);
      }
    }
  }
  return keys.length === 0 ? FREE : { exclusive: false, keys };
}
