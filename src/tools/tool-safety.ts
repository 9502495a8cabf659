import {
  type ResolvedSafety,
  SIDE_EFFECT_LEVELS,
  type SideEffectLevel,
  type ToolKind,
  type ToolSafety,
} from './tool-spec.js';

/** Position of a level in `SIDE_EFFECT_LEVELS`: a larger rank reaches further. */
export function sideEffectRank(level: SideEffectLevel): number {
  return SIDE_EFFECT_LEVELS.indexOf(level);
}

function deriveSideEffectLevel(safety: ToolSafety): SideEffectLevel {
  if (safety.sideEffectLevel !== undefined) return safety.sideEffectLevel;
  if (safety.shell === true) return 'process_exec';
  if (safety.network === true && safety.readOnly !== true) return 'network';
  if (safety.readOnly === true) return 'read_only';
  // Nothing declared: assume the tool may write, so policies and retries fail closed.
  return 'workspace_write';
}

/**
 * Decides every safety field. Undeclared effects resolve fail-closed: a tool that does not say it
 * is read-only may write, and a tool that does not say it is idempotent is not retried.
 * A declared `sideEffectLevel` of `none` or `read_only` implies `readOnly`.
 */
export function resolveSafety(safety: ToolSafety = {}): ResolvedSafety {
  const sideEffectLevel = deriveSideEffectLevel(safety);
  const readOnly =
    safety.readOnly ?? (sideEffectLevel === 'none' || sideEffectLevel === 'read_only');
  return {
    readOnly,
    // MCP: destructiveHint defaults to true and only means something for tools that write.
    destructive: readOnly ? false : (safety.destructive ?? true),
    idempotent: readOnly || safety.idempotent === true,
    honorsIdempotencyKey: safety.honorsIdempotencyKey ?? false,
    openWorld: safety.openWorld ?? (safety.network === true || sideEffectLevel === 'network'),
    sideEffectLevel,
    requiresConfirmation: safety.requiresConfirmation ?? false,
    filesystem: safety.filesystem ?? false,
    shell: safety.shell ?? sideEffectLevel === 'process_exec',
    network: safety.network ?? sideEffectLevel === 'network',
    spend: safety.spend ?? false,
    workspaceRoot: safety.workspaceRoot,
    redact: safety.redact ?? [],
  };
}

/**
 * The ACP kind of a tool that did not declare one: executing tools are `execute`, read-only tools
 * are `read` (or `fetch` when they reach the open world), explicitly destructive tools `delete`,
 * filesystem writers `edit`, and everything else `other`.
 */
export function deriveKind(declared: ToolSafety, resolved: ResolvedSafety): ToolKind {
  if (resolved.shell || resolved.sideEffectLevel === 'process_exec') return 'execute';
  if (resolved.readOnly) return resolved.openWorld ? 'fetch' : 'read';
  if (declared.destructive === true) return 'delete';
  if (resolved.filesystem || declared.sideEffectLevel === 'workspace_write') return 'edit';
  if (resolved.sideEffectLevel === 'network') return 'fetch';
  return 'other';
}
