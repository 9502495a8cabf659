import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as otel from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import {
  composeToolCallers,
  createDispatcher,
  createToolRegistry,
  defineTool,
  type ToolCaller,
  withTelemetry,
} from '../../src/index.js';
import { otelTracer } from '../support/otel-tracer.js';
import { addTool } from '../support/tools.js';

/**
 * Spans checked with the real OpenTelemetry SDK against the conventions' own text (copied, with
 * their source and license, in test/fixtures/otel-semconv).
 */
const conventions = (file: string) =>
  readFileSync(fileURLToPath(new URL(`../fixtures/otel-semconv/${file}`, import.meta.url)), 'utf8');

/** The YAML block of one group of a conventions file (from its `- id:` to the next). */
function group(yaml: string, id: string): string {
  const start = yaml.indexOf(`  - id: ${id}\n`);
  expect(start).toBeGreaterThanOrEqual(0);
  const end = yaml.indexOf('\n  - id: ', start + 1);
  return yaml.slice(start, end === -1 ? undefined : end);
}

/** The attribute refs of a span group whose requirement level is `required`. */
function requiredAttributes(block: string): string[] {
  return [...block.matchAll(/- ref: (\S+)\n\s+requirement_level: required\n/g)].map(
    (match) => match[1]!,
  );
}

const broken = defineTool({
  name: 'broken',
  description: 'Always fails.',
  inputSchema: { type: 'object' },
  handler: () => {
    throw new Error('the disk is on fire');
  },
});

/** Adds two layer entries to every call's audit: one that passed, one that refused. */
const layered: ToolCaller = async (call, next) => {
  const result = await next(call);
  return {
    ...result,
    audit: {
      layers: [
        { name: 'with_rate_limit', status: 'ok', count: 1 },
        { name: 'with_consent', status: call.toolName === 'broken' ? 'denied' : 'approved' },
      ],
    },
  };
};

const tracer = otelTracer();
afterEach(tracer.reset);

async function callBoth(): Promise<ReturnType<typeof withTelemetry>> {
  const telemetry = withTelemetry({ sink: 'otel', recordArguments: true, recordResult: true });
  const dispatcher = createDispatcher({
    registry: createToolRegistry([addTool, broken]),
    caller: composeToolCallers([telemetry, layered]),
  });
  await dispatcher.dispatch({ id: 'ok-1', name: 'add', arguments: '{"a":1,"b":2}' });
  await dispatcher.dispatch({ id: 'fail-1', name: 'broken', arguments: '{}' });
  return telemetry;
}

function byName(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const span = spans.find((candidate) => candidate.name === name);
  expect(span, name).toBeDefined();
  return span!;
}

describe('tool spans against the OpenTelemetry conventions, through the real SDK', () => {
  it('leaves the status of spans that ended without an error unset, and sets ERROR on failure', async () => {
    const rules = conventions('recording-errors.md');
    expect(rules).toContain(
      'MUST be left unset if the instrumented operation has\nended without any errors.',
    );
    expect(rules).toContain('- SHOULD set the span status code to `Error`');
    const exporter = tracer.register();
    const telemetry = await callBoth();
    await telemetry.flush();
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(6);

    const succeeded = spans.filter((span) => span.attributes['gen_ai.tool.call.id'] === 'ok-1');
    expect(succeeded).toHaveLength(1);
    const ok = succeeded[0]!;
    expect(ok.status).toEqual({ code: otel.SpanStatusCode.UNSET });
    expect(ok.attributes['error.type']).toBeUndefined();
    const okChildren = spans.filter(
      (span) => span.parentSpanContext?.spanId === ok.spanContext().spanId,
    );
    expect(okChildren.map((span) => [span.name, span.status.code])).toEqual([
      ['tool_layer with_rate_limit', otel.SpanStatusCode.UNSET],
      ['tool_layer with_consent', otel.SpanStatusCode.UNSET],
    ]);

    const failed = byName(spans, 'execute_tool broken');
    expect(failed.status.code).toBe(otel.SpanStatusCode.ERROR);
    expect(failed.status.message).toMatch(/the disk is on fire/);
    expect(failed.attributes['error.type']).toBeTypeOf('string');
    const failedChildren = spans.filter(
      (span) => span.parentSpanContext?.spanId === failed.spanContext().spanId,
    );
    expect(failedChildren.map((span) => [span.name, span.status.code])).toEqual([
      ['tool_layer with_rate_limit', otel.SpanStatusCode.UNSET],
      ['tool_layer with_consent', otel.SpanStatusCode.ERROR],
    ]);
  });

  it('records the result only of a call that succeeded, as the registry defines it', async () => {
    const registry = conventions('gen-ai-registry.yaml');
    expect(group(registry, 'gen_ai.tool.call.result')).toBe(
      group(registry, 'gen_ai.tool.call.result'),
    );
    expect(registry).toContain(
      'brief: The result returned by the tool call (if any and if execution was successful).',
    );
    const exporter = tracer.register();
    const telemetry = await callBoth();
    await telemetry.flush();
    const spans = exporter.getFinishedSpans();
    expect(byName(spans, 'execute_tool add').attributes['gen_ai.tool.call.result']).toBe('3');
    const failed = byName(spans, 'execute_tool broken');
    expect(failed.attributes).not.toHaveProperty('gen_ai.tool.call.result');
    expect(failed.attributes['gen_ai.tool.call.arguments']).toBe('{}');
  });

  it('names the span and sets the attributes the execute_tool span requires', async () => {
    const spanGroup = group(conventions('gen-ai-spans.yaml'), 'span.gen_ai.execute_tool.internal');
    expect(spanGroup).toContain('span_kind: internal');
    expect(spanGroup).toContain('**Span name** SHOULD be `execute_tool {gen_ai.tool.name}`.');
    expect(spanGroup).toContain('`gen_ai.operation.name` SHOULD be `execute_tool`.');
    const required = requiredAttributes(spanGroup);
    expect(required).toEqual(['gen_ai.operation.name', 'gen_ai.tool.name']);
    const exporter = tracer.register();
    const telemetry = await callBoth();
    await telemetry.flush();
    for (const name of ['execute_tool add', 'execute_tool broken']) {
      const span = byName(exporter.getFinishedSpans(), name);
      expect(span.kind).toBe(otel.SpanKind.INTERNAL);
      for (const attribute of required) expect(span.attributes).toHaveProperty(attribute);
      expect(span.attributes['gen_ai.operation.name']).toBe('execute_tool');
      expect(`execute_tool ${span.attributes['gen_ai.tool.name']}`).toBe(span.name);
    }
  });

  it('has every span of the calls made before flush() when the tracer is shut down right after', async () => {
    const exporter = tracer.register();
    const telemetry = withTelemetry('otel');
    const dispatcher = createDispatcher({
      registry: createToolRegistry([addTool]),
      caller: composeToolCallers([telemetry]),
    });
    await dispatcher.dispatch({ id: 'first', name: 'add', arguments: '{"a":1,"b":2}' });
    await telemetry.flush();
    const exported = exporter.getFinishedSpans().map((span) => span.name);
    await tracer.shutdown();
    expect(exported).toEqual(['execute_tool add']);
  });
});
