import { errorMessage } from '../errors.js';

/** Deepest nesting of tool arguments accepted unless a dispatcher says otherwise. */
export const DEFAULT_MAX_ARGUMENT_DEPTH = 256;

/** Limits `argumentShapeProblem` checks against. */
export interface ArgumentShapeLimits {
  /** Deepest nesting of objects and arrays; the arguments object itself is depth 1. */
  readonly maxDepth: number;
  /** Most values (members and elements, at any depth) walked before giving up. */
  readonly maxValues: number;
}

/** One object or array on the walk's path, with the position of its next member. */
interface Frame {
  readonly value: object;
  /** Own enumerable keys of an object; null for an array. */
  readonly keys: readonly string[] | null;
  readonly length: number;
  index: number;
}

function frameOf(value: object): Frame {
  if (Array.isArray(value)) return { value, keys: null, length: value.length, index: 0 };
  const keys = Object.keys(value);
  return { value, keys, length: keys.length, index: 0 };
}

/** True for an object of primitive members only (the common case), read without allocating. */
function isFlat(args: object, maxValues: number): boolean {
  try {
    if (Array.isArray(args)) return false;
    let count = 0;
    for (const key in args) {
      if (!Object.hasOwn(args, key)) continue;
      count += 1;
      const member = (args as Record<string, unknown>)[key];
      if ((typeof member === 'object' && member !== null) || count > maxValues) return false;
    }
    return true;
  } catch {
    // Let the full walk say what could not be read.
    return false;
  }
}

/**
 * Why a model's arguments cannot be handed to the engine, or null when they can: nested deeper
 * than `maxDepth`, holding more than `maxValues` values, containing a cycle (objects passed
 * directly), or not readable (a getter or proxy trap that throws). The walk is iterative and
 * bounded: no input can overflow the stack or run it for long. Shared (non-cyclic) references are
 * allowed; each visit counts towards `maxValues`.
 */
export function argumentShapeProblem(args: object, limits: ArgumentShapeLimits): string | null {
  if (isFlat(args, limits.maxValues)) return null;
  const path: Frame[] = [];
  // Objects on the current path: meeting one again is a cycle.
  const ancestors = new Set<object>();
  let values = 0;
  try {
    path.push(frameOf(args));
    ancestors.add(args);
    while (path.length > 0) {
      const frame = path[path.length - 1]!;
      if (frame.index >= frame.length) {
        path.pop();
        ancestors.delete(frame.value);
        continue;
      }
      const index = frame.index;
      frame.index += 1;
      values += 1;
      if (values > limits.maxValues) {
        return `arguments hold more than ${limits.maxValues} values`;
      }
      const member =
        frame.keys === null
          ? (frame.value as unknown[])[index]
          : (frame.value as Record<string, unknown>)[frame.keys[index]!];
      if (typeof member !== 'object' || member === null) continue;
      if (ancestors.has(member)) return 'arguments contain a cycle; send plain JSON';
      if (path.length >= limits.maxDepth) {
        return `arguments are nested too deeply (more than ${limits.maxDepth} levels)`;
      }
      path.push(frameOf(member));
      ancestors.add(member);
    }
  } catch (error) {
    return `arguments could not be read (${errorMessage(error)})`;
  }
  return null;
}
