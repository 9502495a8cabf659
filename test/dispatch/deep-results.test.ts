import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  composeToolCallers,
  createDispatcher,
  createToolRegistry,
  defineTool,
  governanceStack,
  type ToolCaller,
  withAuditLog,
  withTelemetry,
} from '../../src/index.js';
import type { ChainedReceipt } from '../../src/middleware/receipts/index.js';
import type { ToolCallSpan } from '../../src/middleware/telemetry/tool-call-span.js';
import { tempDir } from '../support/temp-dir.js';

/** Deeper than any recursive walk (JSON.stringify, String, a recursive copy) can follow. */
const DEPTH = 100_000;

function nestedArray(): unknown {
  let value: unknown = 1;
  for (let level = 0; level < DEPTH; level += 1) value = [value];
  return value;
}

const deepText = `${'['.repeat(DEPTH)}1${']'.repeat(DEPTH)}`;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const deep = defineTool({
  name: 'deep',
  description: 'Returns an array nested 100 000 deep.',
  inputSchema: { type: 'object' },
  handler: nestedArray,
});

function receipts(directory: string): ChainedReceipt[] {
  return readFileSync(join(directory, 's.jsonl'), 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as ChainedReceipt);
}

describe('a result of any depth', () => {
  it('is rendered, recorded and traced, with the audit layer outermost', async () => {
    const directory = tempDir('switchyard-deep-');
    const spans: ToolCallSpan[] = [];
    const audit = withAuditLog({ sink: 'local', directory });
    const telemetry = withTelemetry({
      sink: (span) => void spans.push(span),
      recordResult: true,
    });
    const layers: ToolCaller[] = [audit, telemetry];
    const dispatcher = createDispatcher({
      registry: createToolRegistry([deep]),
      caller: composeToolCallers(layers),
      maxRenderedChars: 50,
    });
    const result = await dispatcher.dispatch(
      { id: 'd1', name: 'deep', arguments: '{}' },
      { sessionId: 's' },
    );
    await audit.close();
    expect(result.status).toBe('ok');
    expect(result.renderedResult.startsWith('['.repeat(40))).toBe(true);
    expect(result.artifacts?.[0]?.length).toBe(deepText.length);
    const [receipt] = receipts(directory);
    expect(receipt).toMatchObject({ tool_call_id: 'd1', status: 'ok' });
    expect(receipt!.result_hash).toBe(sha256(deepText));
    expect(receipt!.hash_notes).toBeUndefined();
    expect(spans[0]?.attributes['gen_ai.tool.call.result']).toBe(deepText);
  });

  it('gets its receipt through the governance stack too', async () => {
    const directory = tempDir('switchyard-deep-stack-');
    const stack = governanceStack({ audit: { sink: 'local', directory }, telemetry: 'noop' });
    const dispatcher = createDispatcher({
      registry: createToolRegistry([deep]),
      caller: stack.caller,
    });
    const result = await dispatcher.dispatch(
      { id: 'd2', name: 'deep', arguments: '{}' },
      { sessionId: 's' },
    );
    await stack.close();
    expect(result.status).toBe('ok');
    expect(receipts(directory)).toMatchObject([
      { tool_call_id: 'd2', status: 'ok', result_hash: sha256(deepText) },
    ]);
  });

  it('renders a cycle as JSON with a stand-in, not as [object Object]', async () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const tool = defineTool({
      name: 'cyclic',
      description: 'Returns an object that holds itself.',
      inputSchema: { type: 'object' },
      handler: () => cyclic,
    });
    const dispatcher = createDispatcher({ registry: createToolRegistry([tool]) });
    const result = await dispatcher.dispatch({ id: 'c', name: 'cyclic', arguments: '{}' });
    expect(result.renderedResult).toBe('{"name":"loop","self":"[cycle]"}');
  });
});
