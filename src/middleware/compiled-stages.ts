import { isCancellation } from '../cancellation.js';
import type { AuditData, AuditLayer } from '../dispatch/audit.js';
import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { exceptionResult, type ToolCallResult, withAudit } from '../dispatch/result.js';
import type { Next, ToolCaller } from '../dispatch/tool-caller.js';
import {
  type AuditRecorder,
  type Entered,
  type LayerStage,
  Passage,
  type PassageSteps,
  resultFromInside,
} from './layer-stage.js';

type Mutable = Record<string, unknown> & { layers?: AuditLayer[] };

/**
 * The audit of one call through a compiled stack: the stages' entries go into one object instead
 * of a copy of the result per entry. It adds in place only to the result it made itself: any other
 * (the one from inside, a stage's own) it copies once, with its audit, and adds to that copy.
 */
class CallAudit implements AuditRecorder {
  /** The audit of `owner`, which this call made and nobody outside has seen yet. */
  private audit: Mutable | undefined;

  record(
    result: ToolCallResult,
    layer: AuditLayer,
    extra?: Omit<AuditData, 'layers'>,
  ): ToolCallResult {
    let owned = result;
    let audit = this.audit;
    if (audit === undefined || result.audit !== audit) {
      // The same copy `attachLayer` makes, by the same rule, so the keys keep their order.
      audit = Object.assign({}, result.audit) as Mutable;
      if (audit.layers !== undefined) audit.layers = [...audit.layers];
      this.audit = audit;
      owned = withAudit(result, audit as AuditData);
    }
    if (extra !== undefined) Object.assign(audit, extra);
    if (audit.layers === undefined) audit.layers = [layer];
    else audit.layers.push(layer);
    return owned;
  }
}

/** A stage the call passed through, and the envelope it saw. */
interface Passed {
  readonly stage: LayerStage;
  readonly call: ToolCallEnvelope;
  readonly steps: PassageSteps | undefined;
}

/**
 * Several stages as one layer, the first listed outermost: the same stages composed as layers
 * (`stageLayer` each, `composeToolCallers`) give the same results, and this builds one audit per
 * call instead of a copy of the result per stage, and waits only where a stage or `next` hands
 * back a promise. A stage's failure becomes its own `tool_middleware_exception` result, which the
 * stages outside it still see; a cancellation propagates, each stage it passes observing it.
 */
export function compileStages(name: string, stages: readonly LayerStage[]): ToolCaller {
  const compiled = async (call: ToolCallEnvelope, next: Next): Promise<ToolCallResult> => {
    const passed: Passed[] = [];
    let envelope = call;
    let result: ToolCallResult | undefined;
    let thrown: { readonly error: unknown } | undefined;
    for (const stage of stages) {
      let entered: Entered;
      try {
        const entering = stage.enter(envelope);
        entered = entering instanceof Promise ? await entering : entering;
      } catch (error) {
        if (isCancellation(error, envelope.signal)) thrown = { error };
        else result = exceptionResult(envelope, error, { layer: stage.name });
        break;
      }
      if (!(entered instanceof Passage)) {
        result = entered;
        break;
      }
      passed.push({ stage, call: envelope, steps: entered.steps });
      envelope = entered.call;
    }
    if (result === undefined && thrown === undefined) {
      try {
        const value = await next(envelope);
        const stage = passed.at(-1)?.stage.name ?? name;
        result = resultFromInside({ stage, call: envelope, value });
      } catch (error) {
        thrown = { error };
      }
    }
    const audit = new CallAudit();
    for (let index = passed.length - 1; index >= 0; index -= 1) {
      const { stage, call: seen, steps } = passed[index]!;
      try {
        if (thrown !== undefined) {
          if (steps?.failed === undefined) throw thrown.error;
          const answer = steps.failed(thrown.error);
          result = answer instanceof Promise ? await answer : answer;
          thrown = undefined;
        }
        if (steps?.leave !== undefined) {
          const left = steps.leave(result!, audit);
          result = left instanceof Promise ? await left : left;
        }
      } catch (error) {
        thrown = undefined;
        if (isCancellation(error, seen.signal)) thrown = { error };
        else result = exceptionResult(seen, error, { layer: stage.name });
      } finally {
        steps?.done?.();
      }
    }
    if (thrown !== undefined) throw thrown.error;
    return result!;
  };
  return Object.defineProperty(compiled, 'name', { value: name });
}
