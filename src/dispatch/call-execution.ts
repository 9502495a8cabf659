import { AbortLink } from '../cancellation.js';
import type { JsonObject } from '../tools/json.js';
import type { AnyTool } from '../tools/tool-registry.js';
import type { ToolProgress } from '../tools/tool-spec.js';
import type { ToolCallEnvelope, TurnInfo } from './envelope.js';
import type { ExecuteCallDeps } from './execute-call-deps.js';
import type { ExecutionRequest, RuntimeValues } from './executor.js';

/** One execution of a call, as its executor sees it (a class: no closures allocated per call). */
export class CallExecution implements ExecutionRequest {
  readonly tool: AnyTool;
  readonly args: JsonObject;
  readonly callId: string;
  readonly turn: TurnInfo;
  readonly values: RuntimeValues;
  readonly #deps: ExecuteCallDeps;
  readonly #call: ToolCallEnvelope;
  /** The attempt's abort state; made on first use when nothing can abort the attempt. */
  #abort: AbortLink | null;

  constructor(
    deps: ExecuteCallDeps,
    call: ToolCallEnvelope,
    tool: AnyTool,
    abort: AbortLink | null,
  ) {
    this.tool = tool;
    this.args = call.toolArgs;
    this.callId = call.callId;
    this.turn = call.turn;
    this.values = deps.values;
    this.#deps = deps;
    this.#call = call;
    this.#abort = abort;
  }

  get signal(): AbortSignal {
    return this.#link().signal;
  }

  get abortable(): boolean {
    return this.#abort?.abortable === true;
  }

  whenAborted(): Promise<never> {
    return this.#link().whenAborted();
  }

  started(): void {
    this.#abort?.armTimeout();
  }

  #link(): AbortLink {
    this.#abort ??= new AbortLink(undefined);
    return this.#abort;
  }

  emit(progress: ToolProgress): void {
    const scrubber = this.#deps.scrubber;
    this.#deps.onProgress(
      this.#call,
      scrubber === null ? progress : (scrubber.value(progress) as ToolProgress),
    );
  }
}
