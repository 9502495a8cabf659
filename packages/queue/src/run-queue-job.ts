import type { ToolRegistry, TurnInfo } from 'switchyard';
import { ToolTimeoutError } from 'switchyard';
import type { ExecutionRequest, RuntimeValues } from 'switchyard/executors';
import { createInlineExecutor } from 'switchyard/executors';
import { CostTally, toErrorData } from 'switchyard/extension';
import type { AnyTool, ToolCost, ToolProgress } from 'switchyard/tools';
import type { QueueJobData, QueueJobResult } from './queue-job.js';

const inline = createInlineExecutor();

/** A job as the runner needs it: its data and a way to report progress. */
export interface RunnableJob {
  readonly data: QueueJobData;
  updateProgress(progress: ToolProgress): Promise<unknown>;
}

/**
 * Runs one job's tool on this worker with its handler, the way the inline executor runs it: the
 * handler's signal aborts on a cancel from the dispatcher (`signal`) or at the tool's `timeoutMs`.
 * Resolves to the job's result (a spent time limit included: it is the tool's outcome); rejects
 * with the abort reason when the dispatcher cancelled the call, which fails the job (the
 * dispatcher has already answered the call).
 */
export async function runQueueJob(options: {
  readonly job: RunnableJob;
  readonly registry: ToolRegistry;
  readonly values: RuntimeValues;
  readonly signal: AbortSignal;
}): Promise<QueueJobResult> {
  const { job, registry, values } = options;
  const data = job.data;
  const tool = registry.resolve(data.tool);
  if (tool === undefined) {
    return { ok: false, executorFailure: `the queue worker has no tool "${data.tool}"` };
  }
  if (typeof tool.handler !== 'function') {
    return {
      ok: false,
      executorFailure: `tool "${tool.name}" has no handler on the queue worker (a queue worker runs inline handlers)`,
    };
  }
  const timeoutMs = data.timeoutMs ?? tool.timeoutMs;
  if (timeoutMs === undefined) return run(job, tool, values, options.signal);
  const timeout = new AbortController();
  const timer = setTimeout(
    () => timeout.abort(new ToolTimeoutError(tool.name, timeoutMs)),
    timeoutMs,
  );
  try {
    return await run(job, tool, values, AbortSignal.any([options.signal, timeout.signal]));
  } catch (error) {
    // The worker's clock starts before the dispatcher hears the job started, so its limit can be
    // spent first: the call then ends as the timeout it is, not as a failed job.
    if (timeout.signal.aborted && !options.signal.aborted) {
      return { ok: false, error: toErrorData(timeout.signal.reason) };
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

async function run(
  job: RunnableJob,
  tool: AnyTool,
  values: RuntimeValues,
  signal: AbortSignal,
): Promise<QueueJobResult> {
  signal.throwIfAborted();
  const data = job.data;
  // Progress updates go out in order, and all of them before the job completes.
  let reported: Promise<unknown> = Promise.resolve();
  let costs: CostTally | null = null;
  const request: ExecutionRequest = {
    tool,
    args: data.args,
    callId: data.callId,
    turn: turnInfo(data),
    idempotencyKey: data.idempotencyKey,
    signal,
    abortable: true,
    values,
    whenAborted: () => aborted(signal),
    emit(progress: ToolProgress) {
      reported = reported.then(() => job.updateProgress(progress)).catch(ignore);
    },
    reportCost(cost: ToolCost) {
      costs ??= new CostTally();
      costs.add(cost);
    },
  };
  const outcome = await inline.execute(request);
  await reported;
  signal.throwIfAborted();
  const cost = (costs as CostTally | null)?.total();
  const spent = cost === undefined ? {} : { cost };
  return outcome.ok
    ? { ok: true, value: outcome.value, ...spent }
    : { ok: false, error: toErrorData(outcome.error), ...spent };
}

function turnInfo(data: QueueJobData): TurnInfo {
  return { ...data.turn, model: null, provider: null, maxConcurrentTools: 1 };
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

function ignore(): void {}
