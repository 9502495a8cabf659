import { describe, expect, it } from 'vitest';
import { agentLoop } from '../../src/agent/agent-loop.js';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import { toWireCategory } from '../../src/dispatch/error-taxonomy.js';
import { RESERVED_STATUSES } from '../../src/dispatch/result.js';
import { InvalidOptionError } from '../../src/errors.js';
import { governanceStack } from '../../src/middleware/governance-stack.js';
import {
  type GuardrailsOptions,
  type ToolGuardrail,
  withGuardrails,
} from '../../src/middleware/with-guardrails.js';
import { createScriptedModel } from '../../src/providers/scripted/scripted-model.js';
import { deferred } from '../../src/testing/index.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';

const echoSchema = {
  type: 'object',
  properties: { text: { type: 'string' } },
  required: ['text'],
  additionalProperties: false,
} as const;

function setup(guardrails: readonly ToolGuardrail[]) {
  const ran: string[] = [];
  const registry = createToolRegistry([
    defineTool({
      name: 'echo',
      description: 'Echo',
      inputSchema: echoSchema,
      handler: ({ text }) => {
        ran.push(text);
        return `said ${text}`;
      },
    }),
  ]);
  const dispatcher = createDispatcher({ registry, caller: withGuardrails({ guardrails }) });
  const call = (text: string, id = 'c1') =>
    dispatcher.dispatch({ id, name: 'echo', arguments: { text } });
  return { ran, call, registry };
}

describe('withGuardrails', () => {
  it('has its two statuses among the reserved ones, each a permission_denied on the wire', () => {
    expect(RESERVED_STATUSES).toContain('guardrail_tripped');
    expect(RESERVED_STATUSES).toContain('guardrail_halted');
    expect(toWireCategory('guardrail_tripped')).toBe('permission_denied');
    expect(toWireCategory('guardrail_halted')).toBe('permission_denied');
  });

  it('blocks a call on its input before the tool runs, with the reason for the model', async () => {
    const { ran, call } = setup([
      {
        name: 'no-rm',
        input: ({ arguments: args }) =>
          String(args.text).includes('rm -rf')
            ? { action: 'block', reason: 'destructive' }
            : undefined,
      },
    ]);

    const blocked = await call('rm -rf /');
    const allowed = await call('hello', 'c2');

    expect(ran).toEqual(['hello']);
    expect(blocked).toMatchObject({
      ok: false,
      status: 'guardrail_tripped',
      error: 'guardrail no-rm: destructive',
      executor: null,
      audit: {
        layers: [
          {
            name: 'with_guardrails',
            status: 'blocked',
            guardrail: 'no-rm',
            stage: 'input',
            reason: 'destructive',
          },
        ],
      },
    });
    expect(blocked.observation).toContain('guardrail no-rm: destructive');
    expect(allowed).toMatchObject({ ok: true, result: 'said hello' });
    expect(allowed.audit?.layers).toEqual([{ name: 'with_guardrails', status: 'ok' }]);
  });

  it('withholds an output it blocks: the tool ran, the model reads the reason only', async () => {
    const { ran, call } = setup([
      {
        name: 'no-keys',
        output: ({ result }) =>
          result.renderedResult.includes('sk-')
            ? { action: 'block', reason: 'a key leaked' }
            : undefined,
      },
    ]);

    const result = await call('sk-123');

    expect(ran).toEqual(['sk-123']);
    expect(result).toMatchObject({
      ok: false,
      status: 'guardrail_tripped',
      result: null,
      renderedResult: '',
    });
    expect(result.executor).not.toBeNull();
    expect(result.observation).not.toContain('sk-123');
    expect(result.audit?.layers).toEqual([
      {
        name: 'with_guardrails',
        status: 'blocked',
        guardrail: 'no-keys',
        stage: 'output',
        reason: 'a key leaked',
      },
    ]);
  });

  it('replaces an output, the call still ok', async () => {
    const { call } = setup([
      {
        name: 'shorten',
        output: async () => ({ action: 'replace', output: 'shortened', reason: 'long' }),
      },
    ]);

    const result = await call('a long answer');

    expect(result).toMatchObject({ ok: true, status: 'ok', result: 'shortened' });
    expect(result.observation).not.toContain('a long answer');
    expect(result.audit?.layers?.[0]).toMatchObject({
      status: 'replaced',
      guardrail: 'shorten',
      stage: 'output',
    });
  });

  it('runs async checks in order, the first to trip deciding, and only on the tools it watches', async () => {
    const seen: string[] = [];
    const gate = deferred<void>();
    const { ran, call } = setup([
      { name: 'other-tool', tools: ['other'], input: () => ({ action: 'block', reason: 'never' }) },
      {
        name: 'slow',
        input: async () => {
          seen.push('slow');
          await gate.promise;
          return { action: 'allow' };
        },
      },
      {
        name: 'second',
        input: () => {
          seen.push('second');
          return { action: 'block', reason: 'no' };
        },
      },
    ]);

    const pending = call('x');
    await Promise.resolve();
    expect(seen).toEqual(['slow']);
    gate.resolve();
    const result = await pending;

    expect(seen).toEqual(['slow', 'second']);
    expect(ran).toEqual([]);
    expect(result.error).toBe('guardrail second: no');
  });

  it('fails the call closed when a guardrail throws', async () => {
    const { ran, call } = setup([
      {
        name: 'broken',
        input: () => {
          throw new Error('model down');
        },
      },
    ]);
    const result = await call('x');
    expect(ran).toEqual([]);
    expect(result).toMatchObject({
      ok: false,
      status: 'exception',
      errorCategory: 'tool_middleware_exception',
    });
  });

  it.each([
    [{ guardrails: 'x' }],
    [{ guardrails: [{ input: () => undefined }] }],
    [{ guardrails: [{ name: 'a' }] }],
    [{ guardrails: [{ name: 'a', output: 'no' }] }],
    [{ guardrails: [], maxChars: 0 }],
  ])('refuses bad options %j', (options) => {
    expect(() => withGuardrails(options as unknown as GuardrailsOptions)).toThrow(
      InvalidOptionError,
    );
  });

  it('halts the agent run after the turn, inside the governance stack before consent', async () => {
    const asked: string[] = [];
    const { registry } = setup([]);
    const stack = governanceStack({
      guardrails: {
        guardrails: [{ name: 'stop', input: () => ({ action: 'halt', reason: 'out of scope' }) }],
      },
      consent: (call) => {
        asked.push(call.toolName);
        return true;
      },
    });
    const model = createScriptedModel({
      turns: [
        { text: '', toolCalls: [{ id: 'c1', name: 'echo', arguments: { text: 'x' } }] },
        { text: 'never reached' },
      ],
    });

    const run = await agentLoop({ task: 'go', model, tools: registry, toolCaller: stack.caller });

    expect(run.status).toBe('halted');
    expect(run.results.map((result) => result.status)).toEqual(['guardrail_halted']);
    expect(asked).toEqual([]);
    expect(run.iterations).toBe(1);
  });
});
