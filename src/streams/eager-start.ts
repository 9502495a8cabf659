import type { ProposedCall } from '../dispatch/proposed-call.js';
import type { AnyTool, ToolRegistry } from '../tools/tool-registry.js';
import type { StartGate } from './turn-options.js';

/** Decides whether a call may start while the model is still streaming its turn. */
export type EagerPolicy = (call: ProposedCall, tool: AnyTool) => boolean;

/**
 * The default eager policy: a tool may start before the model has finished when running it
 * cannot leave a side effect that a failed or retracted turn would regret — read-only, or
 * idempotent and not destructive; never one that needs confirmation, spends money, or is
 * deferred (hidden until promoted). Consent layers configured per call are not visible here:
 * mark such tools `requiresConfirmation`, or pass your own policy.
 */
export function isSafeToStartEarly(_call: ProposedCall, tool: AnyTool): boolean {
  const { safety } = tool;
  if (safety.requiresConfirmation || safety.spend || tool.deferLoading) return false;
  return safety.readOnly || (safety.idempotent && !safety.destructive);
}

/**
 * The start gate of a streamed turn: `eager: false` holds every call until the response ends;
 * `true` (the default) lets `isSafeToStartEarly` calls through; a function decides itself.
 * Calls of unknown tools start at once: the dispatcher refuses them without running anything.
 */
export function eagerGate(registry: ToolRegistry, eager: boolean | EagerPolicy = true): StartGate {
  if (eager === false) return { startsEarly: () => false };
  const policy = eager === true ? isSafeToStartEarly : eager;
  return {
    startsEarly(call, known) {
      const tool =
        known !== undefined
          ? (known ?? undefined)
          : typeof call.name === 'string'
            ? registry.resolve(call.name)
            : undefined;
      return tool === undefined || policy(call, tool);
    },
  };
}
