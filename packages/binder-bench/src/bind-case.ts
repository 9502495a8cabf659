import type { JsonObject, ToolCaller } from 'switchyard';
import { shortCircuitResult } from 'switchyard';
import type { BinderAudit, BinderStatus } from 'switchyard/middleware';
import { defaultSchemaValidator } from 'switchyard/tools';
import { type BenchCase, expectedToolOf } from './bench-case.js';
import { matchArguments } from './match-arguments.js';
import { plannerCall } from './planner-call.js';

/** What happened to one case under one binder and budget. */
export interface CaseOutcome {
  readonly caseId: string;
  readonly status: BinderStatus;
  /** The binder hop's latency as the layer measured it (0 when skipped). */
  readonly latencyMs: number;
  /** The arguments that reached the tool satisfy its schema. */
  readonly schemaValid: boolean;
  /** The arguments that reached the tool are correct by BFCL's rule. */
  readonly correct: boolean;
  /** Why the hop failed or was skipped, else why the arguments are wrong. */
  readonly reason?: string;
}

/** Scores the arguments a tool would receive: valid against its schema, correct by BFCL's rule. */
export function scoreArguments(benchCase: BenchCase, args: JsonObject) {
  const tool = expectedToolOf(benchCase);
  const match = matchArguments(args, benchCase.expected[0]!.arguments);
  return {
    schemaValid: defaultSchemaValidator.check(tool.name, tool.inputSchema, args).valid,
    correct: match.correct,
    ...(match.correct ? {} : { reason: match.reason }),
  };
}

/**
 * Sends one case's planner call through a binder layer and scores the arguments that reach the
 * tool (the layer's `next`, which records them and answers at once).
 */
export async function bindCase(
  caller: ToolCaller,
  benchCase: BenchCase,
  toolArgs: JsonObject,
): Promise<CaseOutcome> {
  let received: JsonObject = {};
  const result = await caller(plannerCall(benchCase, toolArgs), async (call) => {
    received = call.toolArgs;
    return shortCircuitResult(call, { ok: true, status: 'ok' });
  });
  const audit = result.audit?.binder as BinderAudit | undefined;
  const score = scoreArguments(benchCase, received);
  const layerReason = audit?.status === 'ok' ? undefined : audit?.reason;
  const reason = layerReason ?? score.reason;
  return {
    caseId: benchCase.id,
    status: audit?.status ?? 'skipped',
    latencyMs: audit?.latencyMs ?? 0,
    schemaValid: score.schemaValid,
    correct: score.correct,
    ...(reason === undefined ? {} : { reason }),
  };
}
