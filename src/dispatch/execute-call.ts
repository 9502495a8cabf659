import { CallAttempt } from './call-attempt.js';
import { callStateOf } from './call-state.js';
import { checkCall, isRefusal } from './check-call.js';
import type { ExecutorName, ToolCallEnvelope } from './envelope.js';
import type { ExecuteCallDeps } from './execute-call-deps.js';
import { executorFailure } from './outcome-results.js';
import type { ToolCallResult } from './result.js';

export type { ExecuteCallDeps };

/**
 * The bottom of every middleware stack. It checks the call again, fail closed, whatever the layers
 * above did: the envelope must descend from the one the dispatcher built, the tool must exist and
 * be advertised, unparseable arguments never run, the tool must fit the execution policy the call
 * carries (`permission_denied` otherwise), and arguments a layer rewrote must satisfy the handler's
 * own schema. Then it runs the executor (with the tool's timeout and retry policy) and
 * builds the result: the result itself for a refusal and on the fast path (`CallAttempt.run`), a
 * promise of it otherwise. A call of a journaled turn goes through its journal here, after every
 * check: it is answered from the record of an earlier run, or run at most once with its intent
 * recorded before. Throws or rejects with the cancellation of a cancelled call.
 */
export function executeCall(
  deps: ExecuteCallDeps,
  call: ToolCallEnvelope,
): ToolCallResult | Promise<ToolCallResult> {
  const checked = checkCall(deps, call);
  if (isRefusal(checked)) return checked;
  const tool = checked;
  const executorName: ExecutorName = tool.executor.kind;
  // Results and events carry the canonical name, even when a layer used a provider alias.
  const canonical = call.toolName === tool.name ? call : { ...call, toolName: tool.name };
  // Inline handlers run on this thread, in the attempt; every other kind on its executor.
  const executor = executorName === 'inline' ? null : deps.executors.get(executorName);
  if (executor === undefined) {
    return executorFailure(
      { deps, call: canonical, executor: executorName, elapsedMs: 0, attempts: 1 },
      { message: `no ${executorName} executor is configured for tool "${tool.name}"` },
    );
  }
  const journal = callStateOf(call)?.journal;
  if (journal === undefined)
    return new CallAttempt({ deps, call: canonical, tool, executor }).run();
  return journal.run(canonical, tool, (journaled) =>
    new CallAttempt({ deps, call: journaled, tool, executor }).run(),
  );
}
