import type { AuditData, AuditLayer } from '../dispatch/audit.js';
import { completedResult } from '../dispatch/completed-result.js';
import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import {
  exceptionResult,
  resultContractViolation,
  type ToolCallResult,
} from '../dispatch/result.js';
import type { Next, ToolCaller } from '../dispatch/tool-caller.js';
import { attachLayer } from './attach-audit.js';

/** Adds a layer's entry (and other audit keys) to a result, by the audit rule (`attachLayer`). */
export interface AuditRecorder {
  record(
    result: ToolCallResult,
    layer: AuditLayer,
    extra?: Omit<AuditData, 'layers'>,
  ): ToolCallResult;
}

/** What a stage does with a call it hands on to the layers inside it. */
export interface PassageSteps {
  /**
   * The result on its way back out: the result to hand up, with the stage's audit recorded
   * through `audit`. Default: the result as it is.
   */
  leave?(result: ToolCallResult, audit: AuditRecorder): ToolCallResult | Promise<ToolCallResult>;
  /**
   * The layers inside threw `error` (a cancellation): throw it on (or another error), or answer
   * with a result. Default: throw it on.
   */
  failed?(error: unknown): ToolCallResult | Promise<ToolCallResult>;
  /** Runs once the call has left the stage, whatever happened. */
  done?(): void;
}

/** A call a stage hands on: the envelope the layers inside receive, and what to do on the way back. */
export class Passage {
  constructor(
    readonly call: ToolCallEnvelope,
    readonly steps?: PassageSteps,
  ) {}
}

/** What a stage decided before the layers inside: its own result, or the call handed on. */
export type Entered = ToolCallResult | Passage;

/**
 * A bundled layer's work on one call, split where the layer hands the call on. `stageLayer` runs
 * a stage as a layer of its own; `governanceStack` runs its stages compiled into one layer that
 * builds one audit per call. Both see the same calls and results, so they answer alike.
 */
export interface LayerStage {
  /** The layer's wire name (`with_consent`): its audit entries and the blame for its failures. */
  readonly name: string;
  /**
   * Before the layers inside: a result of the stage's own, or the call handed on (`Passage`). A
   * promise when the stage has to wait (a prompt, a redactor, a store). What it throws is the
   * stage's failure.
   */
  enter(call: ToolCallEnvelope): Entered | Promise<Entered>;
}

/** A stage run alone records its entries on a copy: the result it got may be shared. */
const COPIES: AuditRecorder = { record: attachLayer };

/** What a stage's `next` resolved to: the stage's name, the call it handed on, the value. */
export interface FromInside {
  readonly stage: string;
  readonly call: ToolCallEnvelope;
  readonly value: unknown;
}

/**
 * What `next` resolved to, as a stage reads it: a complete result. A value that is not a result
 * becomes an exception result blamed on what is below the stage (`below_<name>`).
 */
export function resultFromInside({ stage, call, value }: FromInside): ToolCallResult {
  const broken = resultContractViolation(value, call);
  if (broken === null) return completedResult(value as ToolCallResult, call);
  return exceptionResult(call, `a layer inside ${stage} broke its contract: ${broken}`, {
    status: 'exception',
    layer: `below_${stage}`,
  });
}

/**
 * A stage as a layer: its function bears the stage's wire name. What the stage throws rejects the
 * layer's promise (composed, it becomes the layer's `tool_middleware_exception` result).
 */
export function stageLayer(stage: LayerStage): ToolCaller {
  const layer = async (call: ToolCallEnvelope, next: Next): Promise<ToolCallResult> => {
    // Awaited only when it is a promise: a stage that decides at once hands the call on at once.
    const entering = stage.enter(call);
    const entered = entering instanceof Promise ? await entering : entering;
    if (!(entered instanceof Passage)) return entered;
    const steps = entered.steps;
    try {
      let result: ToolCallResult;
      try {
        const value = await next(entered.call);
        result = resultFromInside({ stage: stage.name, call: entered.call, value });
      } catch (error) {
        if (steps?.failed === undefined) throw error;
        result = await steps.failed(error);
      }
      return steps?.leave === undefined ? result : await steps.leave(result, COPIES);
    } finally {
      steps?.done?.();
    }
  };
  return Object.defineProperty(layer, 'name', { value: stage.name });
}
