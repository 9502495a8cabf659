import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CancelledError,
  composeToolCallers,
  createDispatcher,
  createToolRegistry,
  defineTool,
  governanceStack,
  type ProposedCall,
  type ToolCaller,
  type ToolCallResult,
  toolsUseMiddleware,
} from '../../src/index.js';
import {
  type GovernanceStackOptions,
  type GuardrailVerdict,
  type ToolCallSpan,
  withAuditLog,
  withBudget,
  withConsent,
  withDryRun,
  withGuardrails,
  withIdempotency,
  withRateLimit,
  withRedaction,
  withRequiredReason,
  withScopedExecutor,
  withTelemetry,
  withTimeout,
} from '../../src/middleware/index.js';
import { verifyReceipts } from '../../src/middleware/receipts/index.js';
import type { AnyTool } from '../../src/tools/tool-registry.js';
import { tempDir } from '../support/temp-dir.js';

// The compiled governance stack against the same layers composed with composeToolCallers: random
// stack options and random calls (ok, tool errors, retries, refusals, timeouts, cancellations,
// throwing tools and throwing layer options), run one after another through each, must give
// identical results, spans, and receipt logs byte for byte (hash chain included).

/** The same layers as `governanceStack(options)`, composed, outermost first. */
function composedStack(options: GovernanceStackOptions) {
  const audit = options.audit === undefined ? undefined : withAuditLog(options.audit);
  const telemetry = options.telemetry === undefined ? undefined : withTelemetry(options.telemetry);
  const reason =
    options.reason === undefined
      ? undefined
      : withRequiredReason(options.reason === true ? {} : options.reason);
  const { consent, redaction, idempotency } = options;
  const layers = [
    audit,
    telemetry,
    options.scope === undefined ? undefined : withScopedExecutor(options.scope),
    options.guardrails === undefined ? undefined : withGuardrails(options.guardrails),
    reason?.caller,
    consent === undefined
      ? undefined
      : typeof consent === 'function'
        ? withConsent(consent)
        : withConsent(consent.prompt, consent.options),
    redaction === undefined
      ? undefined
      : typeof redaction === 'function'
        ? withRedaction(redaction)
        : withRedaction(redaction.redactor, redaction.options),
    idempotency === undefined ? undefined : withIdempotency(idempotency.key, idempotency.options),
    options.timeout === undefined ? undefined : withTimeout(options.timeout),
    options.budget === undefined ? undefined : withBudget(options.budget),
    options.rateLimit === undefined ? undefined : withRateLimit(options.rateLimit),
    options.dryRun === undefined ? undefined : withDryRun(options.dryRun),
  ].filter((layer): layer is ToolCaller => layer !== undefined);
  return {
    caller: composeToolCallers(layers),
    schemaTransform: reason?.schemaTransform ?? null,
    async close() {
      await telemetry?.flush();
      await audit?.close();
    },
  };
}

/** What one generated call does. */
type Behaviour = 'ok' | 'throws' | 'flaky' | 'hangs' | 'cancels' | 'async';

interface CallSpec {
  readonly tool: 'work' | 'write' | 'unknown';
  readonly behaviour: Behaviour;
  readonly reason: 'given' | 'blank' | 'missing';
  readonly args: 'valid' | 'schema' | 'unparseable';
  /** The call's turn is cancelled before it is dispatched. */
  readonly cancelledBefore: boolean;
  /** Same `n` as an earlier call: an idempotency key may match. */
  readonly n: number;
}

interface Scenario {
  readonly audit: 'local' | 'cloud' | 'both' | undefined;
  readonly telemetry: boolean;
  readonly scope: 'work only' | 'read only' | 'raise' | undefined;
  /** Guardrails tripped by a call's `n`: blocks on input, withholds or replaces output, halts. */
  readonly guardrails: { readonly trip: number; readonly async: boolean } | undefined;
  readonly reason: 'reject' | 'fill_blank' | undefined;
  readonly consent:
    | { readonly deny: number; readonly async: boolean; readonly when: 'all' | 'throws' }
    | undefined;
  readonly redaction: 'scrub' | 'async' | 'throws out' | 'throws in' | undefined;
  readonly idempotency: boolean;
  readonly timeout: { readonly maxMs: number; readonly hard: boolean } | undefined;
  /** Dollars for the run (the work tool reports a quarter per call) and calls of the write tool. */
  readonly budget: { readonly maxUsd: number; readonly writeCalls: number } | undefined;
  readonly rateLimit: number | undefined;
  readonly dryRun: 'write' | 'none' | undefined;
  readonly calls: readonly CallSpec[];
}

const scenarios: fc.Arbitrary<Scenario> = fc.record({
  audit: fc.constantFrom('local', 'cloud', 'both', undefined),
  telemetry: fc.boolean(),
  scope: fc.constantFrom(undefined, undefined, 'work only', 'read only', 'raise'),
  guardrails: fc.option(fc.record({ trip: fc.integer({ min: 0, max: 5 }), async: fc.boolean() }), {
    nil: undefined,
  }),
  reason: fc.constantFrom('reject', 'fill_blank', undefined),
  consent: fc.option(
    fc.record({
      deny: fc.integer({ min: 0, max: 5 }),
      async: fc.boolean(),
      when: fc.constantFrom('all', 'all', 'throws'),
    }),
    { nil: undefined },
  ),
  redaction: fc.constantFrom('scrub', 'async', 'throws out', 'throws in', undefined),
  idempotency: fc.boolean(),
  timeout: fc.option(fc.record({ maxMs: fc.constantFrom(0, 3, 1000, 1000), hard: fc.boolean() }), {
    nil: undefined,
  }),
  budget: fc.option(
    fc.record({
      maxUsd: fc.constantFrom(0, 0.5, 1, 1.25),
      writeCalls: fc.integer({ min: 0, max: 3 }),
    }),
    { nil: undefined },
  ),
  rateLimit: fc.option(fc.integer({ min: 0, max: 8 }), { nil: undefined }),
  dryRun: fc.constantFrom('write', 'none', undefined),
  calls: fc.array(
    fc.record({
      tool: fc.constantFrom('work', 'work', 'work', 'write', 'unknown'),
      behaviour: fc.constantFrom('ok', 'ok', 'ok', 'throws', 'flaky', 'hangs', 'cancels', 'async'),
      reason: fc.constantFrom('given', 'given', 'blank', 'missing'),
      args: fc.constantFrom('valid', 'valid', 'valid', 'valid', 'valid', 'schema', 'unparseable'),
      cancelledBefore: fc.integer({ min: 0, max: 4 }).map((roll) => roll === 0),
      n: fc.integer({ min: 0, max: 3 }),
    }),
    { minLength: 1, maxLength: 8 },
  ),
});

/** A clock per run: every reading is the next millisecond, so two runs read the same times. */
function steppingClock() {
  let now = 1_000;
  return () => {
    now += 1;
    return now;
  };
}

/** The tools of a run; `attempts` counts the flaky tool's tries per call. */
function toolsFor() {
  const attempts = new Map<string, number>();
  const behave = async (
    args: { n: number; behaviour: Behaviour },
    signal: AbortSignal,
    id: string,
  ) => {
    switch (args.behaviour) {
      case 'throws':
        throw new Error(`work ${args.n} failed`);
      case 'flaky': {
        const tries = (attempts.get(id) ?? 0) + 1;
        attempts.set(id, tries);
        if (tries < 2) throw Object.assign(new Error('try again'), { code: 'ECONNRESET' });
        return { n: args.n, tries };
      }
      case 'hangs':
        return new Promise((_, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
      case 'cancels':
        throw new CancelledError(`work ${args.n} was stopped`);
      case 'async':
        await Promise.resolve();
        return { n: args.n, doubled: 2 * args.n };
      default:
        return { n: args.n, doubled: 2 * args.n };
    }
  };
  const schema = {
    type: 'object',
    properties: {
      n: { type: 'integer' },
      behaviour: { type: 'string' },
      secret: { type: 'string' },
    },
    required: ['n', 'behaviour'],
  } as const;
  const work = defineTool({
    name: 'work',
    description: 'does some work',
    inputSchema: schema,
    safety: { readOnly: true },
    timeoutMs: 20,
    retry: { maxAttempts: 2, initialDelayMs: 1, jitter: false },
    handler: (args, runtime) => {
      runtime.reportCost({ usd: 0.25, units: 1, unit: 'step' });
      return args.behaviour === 'ok'
        ? { n: args.n, doubled: 2 * args.n }
        : behave(args as never, runtime.signal, runtime.callId);
    },
  });
  const write = defineTool({
    name: 'write',
    description: 'writes something',
    inputSchema: schema,
    safety: { sideEffectLevel: 'workspace_write' },
    timeoutMs: 20,
    handler: (args, runtime) => behave(args as never, runtime.signal, runtime.callId),
  });
  return [work, write] as AnyTool[];
}

/** The stack's options for a scenario; `clock` drives every layer's time. */
function optionsFor(
  scenario: Scenario,
  directory: string,
  clock: () => number,
  spans: ToolCallSpan[],
) {
  const options: Record<string, unknown> = {};
  if (scenario.audit !== undefined) {
    options.audit = {
      sink: scenario.audit,
      directory,
      redact: ['secret'],
      now: clock,
      wallClock: clock,
    };
  }
  if (scenario.telemetry) {
    options.telemetry = { sink: (span: ToolCallSpan) => void spans.push(span), now: clock };
  }
  if (scenario.scope !== undefined) {
    options.scope =
      scenario.scope === 'work only'
        ? { stage: 'gen', allowedTools: ['work'] }
        : scenario.scope === 'read only'
          ? { stage: 'gen', sideEffectLevel: 'read_only' }
          : { stage: 'gen', allowedTools: ['work'], onViolation: 'raise' };
  }
  const guardrails = scenario.guardrails;
  if (guardrails !== undefined) {
    const verdictOf = (n: unknown, kind: 'input' | 'output'): GuardrailVerdict | undefined => {
      if (n === guardrails.trip && kind === 'input') return { action: 'block', reason: 'input' };
      if (n === guardrails.trip + 1 && kind === 'output') return { action: 'replace', output: 'x' };
      if (n === guardrails.trip + 2 && kind === 'output') return { action: 'block', reason: 'out' };
      if (n === guardrails.trip + 3) return { action: 'halt', reason: 'stop' };
      return undefined;
    };
    const check =
      (kind: 'input' | 'output') =>
      ({ arguments: args }: { arguments: Record<string, unknown> }) =>
        guardrails.async ? Promise.resolve(verdictOf(args.n, kind)) : verdictOf(args.n, kind);
    options.guardrails = {
      guardrails: [{ name: 'numbers', input: check('input'), output: check('output') }],
    };
  }
  if (scenario.reason !== undefined) options.reason = { onMissing: scenario.reason };
  const consent = scenario.consent;
  if (consent !== undefined) {
    const decide = (call: { toolArgs: Record<string, unknown> }) =>
      call.toolArgs.n !== consent.deny;
    options.consent = {
      prompt: consent.async ? async (call: never) => decide(call) : decide,
      options: {
        now: clock,
        when:
          consent.when === 'all'
            ? () => true
            : (call: { toolArgs: Record<string, unknown> }) => {
                if (call.toolArgs.n === 3) throw new Error('policy lookup failed');
                return true;
              },
      },
    };
  }
  const redaction = scenario.redaction;
  if (redaction !== undefined) {
    options.redaction = ({
      phase,
      args,
      result,
    }: {
      phase: string;
      args: Record<string, unknown>;
      result: unknown;
    }) => {
      if (redaction === 'throws in' && phase === 'in' && args.n === 2)
        throw new Error('no redactor');
      if (redaction === 'throws out' && phase === 'out' && args.n === 1)
        throw new Error('no redactor');
      const { secret: _secret, ...kept } = args;
      const answer =
        phase === 'in'
          ? { args: kept }
          : typeof result === 'object' && result !== null
            ? { result: { ...result, redacted: true } }
            : undefined;
      return redaction === 'async' ? Promise.resolve(answer) : answer;
    };
  }
  if (scenario.idempotency) {
    options.idempotency = {
      key: (call: { toolName: string; toolArgs: Record<string, unknown> }) =>
        call.toolArgs.n === 3
          ? undefined
          : `${call.toolName}:${String(call.toolArgs.n)}:${String(call.toolArgs.behaviour)}`,
      options: { now: clock },
    };
  }
  if (scenario.timeout !== undefined) options.timeout = { ...scenario.timeout, now: clock };
  if (scenario.budget !== undefined) {
    options.budget = {
      maxUsd: scenario.budget.maxUsd,
      perTool: { write: { maxCalls: scenario.budget.writeCalls } },
    };
  }
  if (scenario.rateLimit !== undefined)
    options.rateLimit = { maxCalls: scenario.rateLimit, now: clock };
  if (scenario.dryRun !== undefined) {
    options.dryRun =
      scenario.dryRun === 'write' ? { only: ['write'] } : { except: ['work', 'write'] };
  }
  return options as GovernanceStackOptions;
}

function proposed(spec: CallSpec, index: number): ProposedCall {
  const args: Record<string, unknown> = { n: spec.n, behaviour: spec.behaviour, secret: 's3cret' };
  if (spec.reason === 'given') args.reason = `step ${index}`;
  if (spec.reason === 'blank') args.reason = '  ';
  if (spec.args === 'schema') args.n = 'not a number';
  const name = spec.tool === 'unknown' ? 'missing_tool' : spec.tool;
  return {
    id: `call-${index}`,
    name,
    arguments: spec.args === 'unparseable' ? '{"n": 1,' : JSON.stringify(args),
  };
}

interface Run {
  readonly results: ToolCallResult[];
  readonly spans: ToolCallSpan[];
  readonly log: string | null;
}

/** Runs a scenario's calls, one after another, through one of the two stacks. */
async function run(scenario: Scenario, compiled: boolean, directory: string): Promise<Run> {
  const clock = steppingClock();
  const spans: ToolCallSpan[] = [];
  const options = optionsFor(scenario, directory, clock, spans);
  const stack = compiled ? governanceStack(options) : composedStack(options);
  const registry = createToolRegistry(toolsFor());
  const dispatcher = createDispatcher({
    registry:
      stack.schemaTransform === null
        ? registry
        : toolsUseMiddleware(registry, stack.schemaTransform),
    caller: stack.caller,
    now: clock,
    wallClock: clock,
    sleep: async () => {},
    random: () => 0.5,
  });
  const results: ToolCallResult[] = [];
  for (const [index, spec] of scenario.calls.entries()) {
    const controller = new AbortController();
    if (spec.cancelledBefore) controller.abort(new CancelledError('the turn was stopped'));
    results.push(
      await dispatcher.dispatch(proposed(spec, index), {
        sessionId: 'equivalence',
        runId: 'run-1',
        iteration: 1,
        emitOrder: index,
        signal: controller.signal,
      }),
    );
  }
  await stack.close();
  const path = join(directory, 'equivalence.jsonl');
  let log: string | null = null;
  try {
    log = readFileSync(path, 'utf8');
    expect(verifyReceipts(path)).toMatchObject({ ok: true, verifiedLines: scenario.calls.length });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  rmSync(path, { force: true });
  return { results, spans, log };
}

describe('governanceStack: the compiled stack equals the composed one', () => {
  beforeAll(() => {
    // Exception results stamp the wall clock: both runs read the same one.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-28T12:00:00.000Z') });
  });
  afterAll(() => {
    vi.useRealTimers();
  });

  it('gives identical results, spans and receipt logs for random stacks and calls', async () => {
    const directory = tempDir('switchyard-equivalence-');
    await fc.assert(
      fc.asyncProperty(scenarios, async (scenario) => {
        const compiled = await run(scenario, true, directory);
        const composed = await run(scenario, false, directory);
        expect(compiled.results).toEqual(composed.results);
        expect(compiled.spans).toEqual(composed.spans);
        expect(compiled.log).toBe(composed.log);
      }),
      { numRuns: 150 },
    );
  });
});
