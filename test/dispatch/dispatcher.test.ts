import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import type { ProposedCall } from '../../src/dispatch/proposed-call.js';
import { InvalidOptionError } from '../../src/errors.js';
import { recordingTool } from '../../src/testing/recording-tool.js';
import type { ToolRegistry } from '../../src/tools/tool-registry.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';
import { recordEvents } from './support.js';

const CITY_SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'integer' } },
  required: ['city'],
  additionalProperties: false,
};

function setup() {
  const weather = recordingTool({ name: 'weather', inputSchema: CITY_SCHEMA }).returns('sunny');
  const write = recordingTool({
    name: 'write_note',
    safety: { sideEffectLevel: 'workspace_write' },
  }).returns('written');
  const hidden = recordingTool({ name: 'hidden_tool', deferLoading: true }).returns('found');
  const registry = createToolRegistry([weather.tool, write.tool, hidden.tool]);
  return { weather, write, hidden, registry, dispatcher: createDispatcher({ registry }) };
}

describe('createDispatcher options', () => {
  it('rejects a missing registry naming the option', () => {
    const error = (() => {
      try {
        createDispatcher({ registry: undefined as unknown as ToolRegistry });
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect((error as InvalidOptionError).option).toBe('registry');
  });

  it('rejects a caller that is not a function naming the option', () => {
    const registry = createToolRegistry();
    expect(() => createDispatcher({ registry, caller: 'audit' as never })).toThrow(
      expect.objectContaining({ code: 'SY_ERR_INVALID_OPTION', option: 'caller' }),
    );
  });

  it('refuses an executor named inline: inline handlers run in the dispatcher itself', () => {
    const registry = createToolRegistry();
    const inline = {
      name: 'inline' as const,
      execute: async () => ({ ok: true as const, value: 1 }),
    };
    expect(() => createDispatcher({ registry, executors: [inline] })).toThrow(
      expect.objectContaining({ code: 'SY_ERR_INVALID_OPTION', option: 'executors' }),
    );
  });
});

describe('dispatch: tool lookup', () => {
  it('refuses an unknown tool with tool_not_found listing the available names', async () => {
    const { dispatcher, weather } = setup();
    const result = await dispatcher.dispatch({ id: 'c1', name: 'wether', arguments: '{}' });
    expect(result).toMatchObject({
      ok: false,
      status: 'tool_not_found',
      errorCategory: 'tool_not_found',
      toolCallId: 'c1',
      toolName: 'wether',
      executor: null,
    });
    expect(result.error).toBe(
      'Unknown tool "wether". Did you mean "weather"? Available tools: weather, write_note.',
    );
    expect(result.observation).toBe(result.error);
    expect(weather.callCount).toBe(0);
  });

  it('does not advertise deferred tools by default', async () => {
    const { dispatcher, hidden } = setup();
    const result = await dispatcher.dispatch({ id: 'c1', name: 'hidden_tool', arguments: {} });
    expect(result.status).toBe('tool_not_found');
    expect(result.error).not.toContain('hidden_tool.');
    expect(hidden.callCount).toBe(0);
  });

  it('runs a deferred tool once the turn advertises it', async () => {
    const { dispatcher, hidden } = setup();
    const result = await dispatcher.dispatch(
      { id: 'c1', name: 'hidden_tool', arguments: {} },
      { advertised: new Set(['hidden_tool']) },
    );
    expect(result.status).toBe('ok');
    expect(hidden.callCount).toBe(1);
  });

  it('refuses a registered tool the turn did not advertise, listing only advertised names', async () => {
    const { dispatcher, weather } = setup();
    const result = await dispatcher.dispatch(
      { id: 'c1', name: 'weather', arguments: { city: 'Oslo' } },
      { advertised: new Set(['write_note']) },
    );
    expect(result.status).toBe('tool_not_found');
    expect(result.error).toBe('Unknown tool "weather". Available tools: write_note.');
    const deferredOnly = await dispatcher.dispatch(
      { id: 'c2', name: 'weather', arguments: { city: 'Oslo' } },
      { advertised: new Set(['hidden_tool']) },
    );
    expect(deferredOnly.error).toBe('Unknown tool "weather". Available tools: hidden_tool.');
    expect(weather.callCount).toBe(0);
  });

  it('says (none) when nothing is advertised', async () => {
    const { dispatcher } = setup();
    const result = await dispatcher.dispatch(
      { id: 'c1', name: 'weather', arguments: {} },
      { advertised: new Set() },
    );
    expect(result.error).toBe('Unknown tool "weather". Available tools: (none).');
  });

  it('answers a call that is not a call object with schema_violation instead of throwing', async () => {
    const { dispatcher } = setup();
    const result = await dispatcher.dispatch(null as unknown as ProposedCall);
    expect(result.status).toBe('schema_violation');
    expect(result.error).toMatch(/could not be read: the call is null, not an object/);
    expect(result.toolCallId).toMatch(/^call_/);
  });

  it('answers a call proposed without a name with tool_not_found', async () => {
    const { dispatcher } = setup();
    const result = await dispatcher.dispatch({ id: 'c1', name: '' });
    expect(result).toMatchObject({ status: 'tool_not_found', toolCallId: 'c1', toolName: '' });
    expect(result.error).toContain('Available tools: weather, write_note');
  });

  it('keeps the canonical name on results and events when a call uses a provider alias', async () => {
    const remote = recordingTool({ name: 'github.create_issue', foreignName: true }).returns(1);
    const registry = createToolRegistry([remote.tool]);
    const dispatcher = createDispatcher({ registry });
    const events = recordEvents(dispatcher);
    const alias = registry.aliasOf('github.create_issue')!;
    expect(alias).toBe('github_create_issue');
    const result = await dispatcher.dispatch({ id: 'c1', name: alias, arguments: {} });
    expect(result.status).toBe('ok');
    expect(result.toolName).toBe('github.create_issue');
    expect(remote.lastCall?.toolName).toBe('github.create_issue');
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) expect(event.toolName).toBe('github.create_issue');
  });
});

describe('dispatch: arguments', () => {
  it('runs the handler on arguments given as JSON text and returns a complete result', async () => {
    const { dispatcher, weather } = setup();
    const result = await dispatcher.dispatch({
      id: 'c1',
      name: 'weather',
      arguments: '{"city":"Oslo","days":2}',
    });
    expect(result).toMatchObject({
      ok: true,
      status: 'ok',
      toolName: 'weather',
      toolCallId: 'c1',
      result: 'sunny',
      renderedResult: 'sunny',
      observation: 'sunny',
      error: null,
      errorCategory: null,
      executor: 'inline',
      emitOrder: 0,
      attempts: 1,
    });
    expect(result.arguments).toEqual({ city: 'Oslo', days: 2 });
    expect(result.executionDurationMs).toBeGreaterThanOrEqual(0);
    expect(weather.lastCall?.args).toEqual({ city: 'Oslo', days: 2 });
  });

  it('accepts arguments as an object', async () => {
    const { dispatcher, weather } = setup();
    const result = await dispatcher.dispatch({
      id: 'c1',
      name: 'weather',
      arguments: { city: 'Rome' },
    });
    expect(result.status).toBe('ok');
    expect(weather.lastCall?.args).toEqual({ city: 'Rome' });
  });

  it('refuses malformed JSON with a repair text and never calls the handler', async () => {
    const { dispatcher, weather } = setup();
    const result = await dispatcher.dispatch({
      id: 'c1',
      name: 'weather',
      arguments: '{"city": "Os',
    });
    expect(result).toMatchObject({
      ok: false,
      status: 'schema_violation',
      errorCategory: 'schema_violation',
      toolCallId: 'c1',
    });
    expect(result.error).toMatch(
      /^Invalid arguments for tool "weather": arguments are not valid JSON/,
    );
    expect(result.error).toContain('send one complete JSON object');
    expect(weather.callCount).toBe(0);
  });

  it.each([undefined, null, '', '   '])(
    'lets missing or empty arguments (%j) stand for {} on a read-only tool',
    async (raw) => {
      const reader = recordingTool({ name: 'list_files' });
      const dispatcher = createDispatcher({ registry: createToolRegistry([reader.tool]) });
      const result = await dispatcher.dispatch({ id: 'c1', name: 'list_files', arguments: raw });
      expect(result.status).toBe('ok');
      expect(reader.lastCall?.args).toEqual({});
    },
  );

  it.each([undefined, null, '', '   '])(
    'refuses missing or empty arguments (%j) on a side-effecting tool',
    async (raw) => {
      const { dispatcher, write } = setup();
      const result = await dispatcher.dispatch({ id: 'c1', name: 'write_note', arguments: raw });
      expect(result).toMatchObject({
        status: 'schema_violation',
        errorCategory: 'schema_violation',
      });
      expect(result.error).toContain('no arguments were received; this tool has side effects');
      expect(write.callCount).toBe(0);
    },
  );

  it('refuses empty arguments on an idempotent tool that is not read-only', async () => {
    const put = recordingTool({ name: 'put', safety: { idempotent: true, readOnly: false } });
    const dispatcher = createDispatcher({ registry: createToolRegistry([put.tool]) });
    expect((await dispatcher.dispatch({ id: 'c1', name: 'put' })).status).toBe('schema_violation');
    expect(put.callCount).toBe(0);
  });

  it.each([
    ['[1,2]', 'an array'],
    ['"text"', 'a string'],
    ['42', 'a number'],
    ['null', 'null'],
    ['true', 'a boolean'],
  ])('refuses JSON text %s that is not an object', async (raw, described) => {
    const { dispatcher, write } = setup();
    const result = await dispatcher.dispatch({ id: 'c1', name: 'write_note', arguments: raw });
    expect(result).toMatchObject({ status: 'schema_violation', errorCategory: 'schema_violation' });
    expect(result.error).toContain(`arguments must be a JSON object; got ${described}`);
    expect(write.callCount).toBe(0);
  });

  it('refuses argument values that are not objects', async () => {
    const { dispatcher, write } = setup();
    const result = await dispatcher.dispatch({
      id: 'c1',
      name: 'write_note',
      arguments: [1] as never,
    });
    expect(result.status).toBe('schema_violation');
    expect(result.error).toContain('got an array');
    expect(write.callCount).toBe(0);
  });

  it('refuses argument text longer than maxArgumentChars', async () => {
    const { registry, weather } = setup();
    const dispatcher = createDispatcher({ registry, maxArgumentChars: 20 });
    const raw = JSON.stringify({ city: 'x'.repeat(30) });
    const result = await dispatcher.dispatch({ id: 'c1', name: 'weather', arguments: raw });
    expect(result.status).toBe('schema_violation');
    expect(result.error).toContain(`arguments are ${raw.length} characters long; the limit is 20`);
    expect(weather.callCount).toBe(0);
    const short = await dispatcher.dispatch({
      id: 'c2',
      name: 'weather',
      arguments: '{"city":"Oslo"}',
    });
    expect(short.status).toBe('ok');
  });

  it('refuses arguments that violate the schema with a repair message', async () => {
    const { dispatcher, weather } = setup();
    const result = await dispatcher.dispatch({
      id: 'c1',
      name: 'weather',
      arguments: { days: 'two', zip: 1 },
    });
    expect(result).toMatchObject({
      ok: false,
      status: 'schema_violation',
      errorCategory: 'schema_violation',
    });
    expect(result.error).toContain('- city: missing required property (expected string)');
    expect(result.error).toContain('- days: must be integer');
    expect(result.error).toContain('- zip: unexpected property');
    expect(result.observation).toBe(result.error);
    expect(weather.callCount).toBe(0);
  });
});

describe('dispatch: handler failures', () => {
  it('turns a synchronous throw into an error result keeping the message', async () => {
    const tool = recordingTool({ name: 'boom' }).throws(new Error('disk on fire'));
    const dispatcher = createDispatcher({ registry: createToolRegistry([tool.tool]) });
    const result = await dispatcher.dispatch({ id: 'c1', name: 'boom', arguments: {} });
    expect(result).toMatchObject({
      ok: false,
      status: 'error',
      errorCategory: 'tool_error',
      error: 'disk on fire',
      toolCallId: 'c1',
      executor: 'inline',
      attempts: 1,
    });
    expect(result.observation).toBe('[error from boom]\ndisk on fire\n[end of boom error]');
  });

  it('turns a rejected promise into an error result keeping the message', async () => {
    const tool = recordingTool({ name: 'boom' }).respondsWith(async () => {
      throw new TypeError('async failure');
    });
    const dispatcher = createDispatcher({ registry: createToolRegistry([tool.tool]) });
    const result = await dispatcher.dispatch({ id: 'c1', name: 'boom', arguments: {} });
    expect(result).toMatchObject({
      ok: false,
      status: 'error',
      errorCategory: 'tool_error',
      error: 'async failure',
      toolCallId: 'c1',
      executor: 'inline',
    });
    expect(result.observation).toBe('[error from boom]\nasync failure\n[end of boom error]');
  });

  it('keeps the message of a thrown non-Error value', async () => {
    const tool = recordingTool({ name: 'boom' }).throws('plain string');
    const dispatcher = createDispatcher({ registry: createToolRegistry([tool.tool]) });
    const result = await dispatcher.dispatch({ id: 'c1', name: 'boom', arguments: {} });
    expect(result).toMatchObject({
      ok: false,
      status: 'error',
      errorCategory: 'tool_error',
      error: 'plain string',
      toolCallId: 'c1',
      executor: 'inline',
    });
    expect(result.observation).toBe('[error from boom]\nplain string\n[end of boom error]');
  });
});

describe('dispatch: call ids', () => {
  const paths: Array<[string, ProposedCall]> = [
    ['ok', { name: 'weather', arguments: { city: 'Oslo' } }],
    ['unknown tool', { name: 'nope', arguments: {} }],
    ['malformed JSON', { name: 'weather', arguments: '{' }],
    ['schema violation', { name: 'weather', arguments: {} }],
    ['missing arguments', { name: 'write_note' }],
  ];

  it.each(paths)('preserves the call id on the %s path', async (_label, call) => {
    const { dispatcher } = setup();
    const result = await dispatcher.dispatch({ ...call, id: 'call_keep_me' });
    expect(result.toolCallId).toBe('call_keep_me');
  });

  it.each(paths)('generates a call id on the %s path when it is missing', async (_label, call) => {
    const { registry } = setup();
    let counter = 0;
    const dispatcher = createDispatcher({ registry, generateCallId: () => `gen_${++counter}` });
    expect((await dispatcher.dispatch(call)).toolCallId).toBe('gen_1');
    expect((await dispatcher.dispatch({ ...call, id: '' })).toolCallId).toBe('gen_2');
  });

  it('generates call_<uuid> ids by default', async () => {
    const { dispatcher } = setup();
    const first = await dispatcher.dispatch({ name: 'weather', arguments: { city: 'a' } });
    const second = await dispatcher.dispatch({ name: 'weather', arguments: { city: 'a' } });
    expect(first.toolCallId).toMatch(/^call_[0-9a-f-]{36}$/);
    expect(second.toolCallId).not.toBe(first.toolCallId);
  });

  it('hands the same call id to the handler', async () => {
    const { dispatcher, weather } = setup();
    await dispatcher.dispatch({ id: 'c77', name: 'weather', arguments: { city: 'a' } });
    expect(weather.lastCall?.callId).toBe('c77');
  });

  it('stamps the emit order of the turn on the result', async () => {
    const { dispatcher } = setup();
    const refused = await dispatcher.dispatch({ id: 'c1', name: 'nope' }, { emitOrder: 4 });
    expect(refused.emitOrder).toBe(4);
    const ran = await dispatcher.dispatch(
      { id: 'c2', name: 'weather', arguments: { city: 'Oslo' } },
      { emitOrder: 5 },
    );
    expect(ran).toMatchObject({ status: 'ok', emitOrder: 5 });
  });
});
