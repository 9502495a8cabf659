import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import {
  agentLoop,
  composeToolCallers,
  createDispatcher,
  createToolRegistry,
  withGuardrails,
  withTelemetry,
} from '../../src/index.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { lookupTool as lookup, payTool as pay } from '../support/eager-and-held-tools.js';
import { otelTracer } from '../support/otel-tracer.js';

/** Spans checked through the real OpenTelemetry SDK, as telemetry-conventions.test.ts does. */
const tracer = otelTracer();
afterEach(tracer.reset);

function toolSpan(spans: readonly ReadableSpan[], callId: string): ReadableSpan {
  const span = spans.find(
    (candidate) =>
      candidate.name.startsWith('execute_tool ') &&
      candidate.attributes['gen_ai.tool.call.id'] === callId,
  );
  expect(span, callId).toBeDefined();
  return span!;
}

describe('call spans: model tokens and guardrails, through the real SDK', () => {
  it('carries each held call’s share of its turn’s tokens under the gen_ai.usage names', async () => {
    const registry = readFileSync(
      fileURLToPath(new URL('../fixtures/otel-semconv/gen-ai-registry.yaml', import.meta.url)),
      'utf8',
    );
    expect(registry).toContain('- id: gen_ai.usage.input_tokens');
    expect(registry).toContain('- id: gen_ai.usage.output_tokens');
    const exporter = tracer.register();
    const telemetry = withTelemetry('otel');
    const model = createScriptedModel({
      turns: [
        {
          toolCalls: [
            { id: 'l0', name: 'lookup', arguments: {} },
            { id: 'p1', name: 'pay', arguments: { n: 1 } },
            { id: 'p2', name: 'pay', arguments: { n: 2 } },
          ],
          usage: { inputTokens: 10, outputTokens: 5 },
        },
        { text: 'done' },
      ],
    });
    const run = await agentLoop({
      task: 'pay',
      model,
      tools: createToolRegistry([lookup, pay]),
      toolCaller: telemetry,
    });
    await telemetry.flush();
    const spans = exporter.getFinishedSpans();
    expect(toolSpan(spans, 'l0').attributes).not.toHaveProperty('gen_ai.usage.input_tokens');
    for (const result of run.results.slice(1)) {
      const attributes = toolSpan(spans, result.toolCallId).attributes;
      expect([
        attributes['gen_ai.usage.input_tokens'],
        attributes['gen_ai.usage.output_tokens'],
      ]).toEqual([result.usage?.modelInputTokens, result.usage?.modelOutputTokens]);
    }
    expect(toolSpan(spans, 'p2').attributes['gen_ai.usage.input_tokens']).toBe(3);
  });

  it('records a guardrail that tripped as an event of the call span, beside the layer span', async () => {
    const exporter = tracer.register();
    const telemetry = withTelemetry('otel');
    const guardrails = withGuardrails({
      guardrails: [
        {
          name: 'no-large-payments',
          tools: ['pay'],
          input: ({ arguments: args }) =>
            Number(args.n) > 100 ? { action: 'block', reason: 'over the limit' } : undefined,
          output: ({ arguments: args }) =>
            args.n === 7 ? { action: 'replace', output: 'paid (amount hidden)' } : undefined,
        },
        {
          name: 'stop-on-refund',
          tools: ['pay'],
          input: ({ arguments: args }) =>
            Number(args.n) < 0 ? { action: 'halt', reason: 'refunds need a person' } : undefined,
        },
      ],
    });
    const dispatcher = createDispatcher({
      registry: createToolRegistry([pay]),
      caller: composeToolCallers([telemetry, guardrails]),
    });
    const statuses = [];
    for (const [id, n] of [
      ['ok', 1],
      ['blocked', 500],
      ['replaced', 7],
      ['halted', -1],
    ] as const) {
      statuses.push((await dispatcher.dispatch({ id, name: 'pay', arguments: { n } })).status);
    }
    expect(statuses).toEqual(['ok', 'guardrail_tripped', 'ok', 'guardrail_halted']);
    await telemetry.flush();
    const spans = exporter.getFinishedSpans();
    const tripped = (callId: string) =>
      toolSpan(spans, callId)
        .events.filter((event) => event.name === 'switchyard.guardrail.tripped')
        .map((event) => event.attributes);
    expect(tripped('ok')).toEqual([]);
    expect(tripped('blocked')).toEqual([
      {
        'switchyard.guardrail.name': 'no-large-payments',
        'switchyard.guardrail.stage': 'input',
        'switchyard.guardrail.action': 'block',
        'switchyard.guardrail.reason': 'over the limit',
      },
    ]);
    expect(tripped('replaced')).toEqual([
      {
        'switchyard.guardrail.name': 'no-large-payments',
        'switchyard.guardrail.stage': 'output',
        'switchyard.guardrail.action': 'replace',
      },
    ]);
    expect(tripped('halted')).toEqual([
      {
        'switchyard.guardrail.name': 'stop-on-refund',
        'switchyard.guardrail.stage': 'input',
        'switchyard.guardrail.action': 'halt',
        'switchyard.guardrail.reason': 'refunds need a person',
      },
    ]);
    const blocked = toolSpan(spans, 'blocked');
    const children = spans.filter(
      (span) => span.parentSpanContext?.spanId === blocked.spanContext().spanId,
    );
    expect(children.map((span) => span.name)).toEqual(['tool_layer with_guardrails']);
    expect(blocked.events.map((event) => event.name)).toEqual([
      'tool_call.dispatched',
      'switchyard.guardrail.tripped',
      'tool_call.result_returned',
    ]);
  });
});
