import type {
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
import { convertArrayToReadableStream } from 'ai/test';
import {
  composeToolCallers,
  createDispatcher,
  createToolRegistry,
  defineTool,
  type ToolCaller,
  type ToolCallResult,
  withAuditLog,
} from '../../src/index.js';

/** A proposed call as the model sends it: name and raw JSON text. */
export interface WireCall {
  readonly id: string;
  readonly name: string;
  readonly input: string;
}

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model response proposing `calls`. */
export function toolCallResponse(calls: readonly WireCall[]): LanguageModelV4GenerateResult {
  return {
    content: calls.map((call) => ({
      type: 'tool-call' as const,
      toolCallId: call.id,
      toolName: call.name,
      input: call.input,
    })),
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: USAGE,
    warnings: [],
  };
}

/** A streamed model response: `generated`'s content as stream parts, then its finish. */
export function streamed(generated: LanguageModelV4GenerateResult): LanguageModelV4StreamResult {
  const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  for (const part of generated.content) {
    if (part.type === 'text') {
      parts.push({ type: 'text-start', id: 't' });
      parts.push({ type: 'text-delta', id: 't', delta: part.text });
      parts.push({ type: 'text-end', id: 't' });
    } else if (part.type === 'tool-call') {
      parts.push(part);
    }
  }
  parts.push({ type: 'finish', finishReason: generated.finishReason, usage: generated.usage });
  return { stream: convertArrayToReadableStream(parts) };
}

/** A final text response. */
export function textResponse(text: string): LanguageModelV4GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: USAGE,
    warnings: [],
  };
}

/** The calls of one step: a good one, an unknown tool, malformed JSON and a schema violation. */
export const MIXED_STEP: readonly WireCall[] = [
  { id: 'c0', name: 'add', input: '{"a":1,"b":2}' },
  { id: 'c1', name: 'subtract', input: '{"a":1,"b":2}' },
  { id: 'c2', name: 'add', input: '{"a":1,' },
  { id: 'c3', name: 'add', input: '{"a":"one","b":2}' },
];

/** A dispatcher over `add` whose stack records every result and every receipt. */
export function recordingDispatcher(options: { readonly hold?: Promise<void> } = {}) {
  const results: ToolCallResult[] = [];
  const receipts: unknown[] = [];
  let inFlight = 0;
  let started = 0;
  let aborted = 0;
  let peak = 0;
  const add = defineTool<{ a: number; b: number }, number>({
    name: 'add',
    description: 'Add two numbers',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
      additionalProperties: false,
    },
    safety: { readOnly: true },
    handler: async ({ a, b }, runtime) => {
      inFlight += 1;
      started += 1;
      peak = Math.max(peak, inFlight);
      try {
        if (options.hold !== undefined) {
          await Promise.race([
            options.hold,
            new Promise((_, reject) =>
              runtime.signal?.addEventListener('abort', () => {
                aborted += 1;
                reject(runtime.signal?.reason);
              }),
            ),
          ]);
        }
        return a + b;
      } finally {
        inFlight -= 1;
      }
    },
  });
  const record: ToolCaller = async function record(call, next) {
    const result = await next(call);
    results.push(result);
    return result;
  };
  const dispatcher = createDispatcher({
    registry: createToolRegistry([add]),
    caller: composeToolCallers([
      withAuditLog(async (receipt) => {
        receipts.push(receipt);
      }),
      record,
    ]),
  });
  return {
    dispatcher,
    results,
    receipts,
    get peak() {
      return peak;
    },
    get inFlight() {
      return inFlight;
    },
    /** Handler runs begun, and runs that saw their signal abort. */
    get started() {
      return started;
    },
    get aborted() {
      return aborted;
    },
  };
}
