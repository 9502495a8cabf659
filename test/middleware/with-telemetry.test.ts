import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import {
  composeToolCallers,
  createDispatcher,
  createToolRegistry,
  shortCircuitResult,
  type ToolCaller,
  withTelemetry,
} from '../../src/index.js';
import { langfuseSpanSink, type ToolCallSpan } from '../../src/middleware/index.js';
import { deferred } from '../../src/testing/index.js';
import { addTool } from '../support/tools.js';

const registry = createToolRegistry([addTool]);
let clock = 1_000;
const now = () => (clock += 5);

describe('withTelemetry', () => {
  it('emits a GenAI-shaped span per call with a child span per audit layer', async () => {
    const spans: ToolCallSpan[] = [];
    const tagged: ToolCaller = async (call, next) => ({
      ...(await next(call)),
      audit: { layers: [{ name: 'with_rate_limit', status: 'ok', count: 1, cap: 5 }] },
    });
    const dispatcher = createDispatcher({
      registry,
      caller: composeToolCallers([
        withTelemetry({
          sink: (span) => void spans.push(span),
          now,
          recordArguments: true,
          recordResult: true,
        }),
        tagged,
      ]),
    });
    const result = await dispatcher.dispatch(
      { id: 'c1', name: 'add', arguments: '{"a":1,"b":2}' },
      { sessionId: 'sess', emitOrder: 2 },
    );
    expect(spans).toHaveLength(1);
    const [span] = spans;
    expect(span).toMatchObject({
      name: 'execute_tool add',
      kind: 'INTERNAL',
      traceId: 'sess',
      spanId: 'c1',
      status: 'ok',
      durationMs: 5,
    });
    expect(span?.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'add',
      'gen_ai.tool.call.id': 'c1',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.description': 'Add two numbers.',
      'gen_ai.tool.call.arguments': '{"a":1,"b":2}',
      'gen_ai.tool.call.result': '3',
      'switchyard.status': 'ok',
      'switchyard.emit_order': 2,
      'switchyard.iteration': 0,
      'switchyard.executor': 'inline',
      'switchyard.session_id': 'sess',
    });
    expect(span?.children).toEqual([
      {
        name: 'tool_layer with_rate_limit',
        status: 'ok',
        attributes: {
          'switchyard.layer.status': 'ok',
          'switchyard.layer.count': 1,
          'switchyard.layer.cap': 5,
        },
      },
    ]);
    expect(result.audit?.layers?.at(-1)).toMatchObject({ name: 'with_telemetry', status: 'ok' });
  });

  it('marks failures with error.type and leaves arguments out unless asked', async () => {
    const spans: ToolCallSpan[] = [];
    const deny: ToolCaller = async (call) =>
      shortCircuitResult(call, { status: 'error', errorCategory: 'consent_denied', error: 'no' });
    const dispatcher = createDispatcher({
      registry,
      caller: composeToolCallers([withTelemetry((span) => void spans.push(span)), deny]),
    });
    await dispatcher.dispatch({ id: 'd', name: 'add', arguments: '{"a":1,"b":2}' });
    expect(spans[0]).toMatchObject({
      status: 'error',
      statusMessage: 'no',
      traceId: 'tool_call:d',
    });
    expect(spans[0]?.attributes['error.type']).toBe('permission_denied');
    expect(spans[0]?.attributes).not.toHaveProperty('gen_ai.tool.call.arguments');
  });

  it('never breaks the call when a sink throws or rejects, and reports it', async () => {
    const errors: unknown[] = [];
    const telemetry = withTelemetry({
      sinks: [
        () => {
          throw new Error('sync boom');
        },
        async () => Promise.reject(new Error('async boom')),
      ],
      onError: (error) => errors.push(error),
    });
    const result = await createDispatcher({ registry, caller: telemetry }).dispatch({
      id: 'x',
      name: 'add',
      arguments: '{"a":1,"b":2}',
    });
    expect(result).toMatchObject({ ok: true, result: 3 });
    await expect.poll(() => errors.length).toBe(2);
  });

  it('refuses an unknown sink name at construction', () => {
    expect(() => withTelemetry('datadog' as never)).toThrow(/unknown sink "datadog"/);
  });
});

describe('the langfuse sink', () => {
  const received: {
    auth: string | undefined;
    body: { batch: { type: string; body: { name: string; traceId: string } }[] };
  }[] = [];
  const arrived = deferred();
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ auth: request.headers.authorization, body: JSON.parse(body) });
      response.writeHead(request.url === '/api/public/ingestion' ? 207 : 404).end('{}');
      arrived.resolve();
    });
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('posts batches of spans to the ingestion API with Basic auth', async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const telemetry = withTelemetry({
      sink: 'langfuse',
      langfuse: {
        baseUrl: `http://127.0.0.1:${port}`,
        publicKey: 'pk',
        secretKey: 'sk',
        flushIntervalMs: 60_000,
      },
    });
    const dispatcher = createDispatcher({ registry, caller: telemetry });
    await dispatcher.dispatch(
      { id: 'l1', name: 'add', arguments: '{"a":1,"b":2}' },
      { sessionId: 'trace-1' },
    );
    await dispatcher.dispatch(
      { id: 'l2', name: 'add', arguments: '{"a":2,"b":2}' },
      { sessionId: 'trace-1' },
    );
    await telemetry.flush();
    await arrived.promise;
    expect(received).toHaveLength(1);
    expect(received[0]?.auth).toBe(`Basic ${Buffer.from('pk:sk').toString('base64')}`);
    expect(
      received[0]?.body.batch.map((event) => [event.type, event.body.name, event.body.traceId]),
    ).toEqual([
      ['span-create', 'execute_tool add', 'trace-1'],
      ['span-create', 'execute_tool add', 'trace-1'],
    ]);
  });

  it('reports missing credentials instead of throwing', async () => {
    const errors: unknown[] = [];
    const sink = langfuseSpanSink({ env: {} }, (error) => errors.push(error));
    sink.export({} as ToolCallSpan);
    await sink.flush?.();
    expect(String(errors[0])).toContain('LANGFUSE_BASE_URL');
  });
});
