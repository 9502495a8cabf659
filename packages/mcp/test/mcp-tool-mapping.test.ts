import { CancelledError, toolOutput } from 'switchyard';
import { defaultSchemaValidator } from 'switchyard/tools';
import { describe, expect, it } from 'vitest';
import { CallLimiter } from '../src/call-limiter.js';
import { outcomeOfMcpResult } from '../src/mcp-call-result.js';
import { mcpToolSafety } from '../src/mcp-safety.js';
import { mcpToolsOf } from '../src/mcp-tool-specs.js';

const config = { name: 'srv', transport: 'stdio', command: 'unused' } as const;

describe('MCP tool definitions', () => {
  it('skips tools whose names or schemas cannot be used, with the reason', () => {
    const { tools, skipped } = mcpToolsOf(
      config,
      [
        { name: 'fine.tool', inputSchema: { type: 'object' } },
        { name: 'has space', inputSchema: { type: 'object' } },
        { name: 'x'.repeat(130), inputSchema: { type: 'object' } },
        { name: 'typo', inputSchema: { type: 'object', requried: ['a'] } },
        { name: 'fine.tool', inputSchema: { type: 'object' } },
      ] as never,
      defaultSchemaValidator,
    );
    expect(tools.map((tool) => tool.name)).toEqual(['srv__fine.tool']);
    expect(skipped).toHaveLength(4);
    expect(skipped[0]?.reason).toMatch(/whitespace/);
    expect(skipped[3]?.reason).toBe('listed twice');
  });

  it('believes annotations only from trusted servers', () => {
    const harmless = { readOnlyHint: true, openWorldHint: false };
    expect(mcpToolSafety(harmless, false)).toMatchObject({
      readOnly: false,
      idempotent: false,
      openWorld: true,
    });
    expect(mcpToolSafety(harmless, true)).toMatchObject({
      readOnly: true,
      idempotent: true,
      openWorld: false,
    });
    expect(mcpToolSafety({}, true)).toMatchObject({
      readOnly: false,
      destructive: true,
      openWorld: true,
    });
  });
});

describe('MCP call results', () => {
  const [typed] = mcpToolsOf(
    config,
    [
      {
        name: 'typed',
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      },
    ] as never,
    defaultSchemaValidator,
  ).tools;

  it('rejects structuredContent that breaks the outputSchema as the server fault', () => {
    const outcome = outcomeOfMcpResult(
      typed as never,
      'srv',
      { content: [], structuredContent: { n: 'one' } },
      defaultSchemaValidator,
    );
    expect(outcome).toMatchObject({
      ok: false,
      executorFailure: { errorCategory: 'mcp_server_error' },
    });
    const missing = outcomeOfMcpResult(
      typed as never,
      'srv',
      { content: [] },
      defaultSchemaValidator,
    );
    expect(missing).toMatchObject({
      ok: false,
      executorFailure: { errorCategory: 'mcp_server_error' },
    });
  });

  it('maps every content block, hostile ones included, without throwing', () => {
    const [plain] = mcpToolsOf(
      config,
      [{ name: 'plain', inputSchema: { type: 'object' } }] as never,
      defaultSchemaValidator,
    ).tools;
    const outcome = outcomeOfMcpResult(
      plain as never,
      'srv',
      {
        content: [
          { type: 'text', text: 'a' },
          { type: 'image', data: 'AAA', mimeType: 'image/png' },
          { type: 'resource_link', uri: 'file:///x', name: 'x' },
          { type: 'resource', resource: { uri: 'file:///y', text: 'body' } },
          { type: 'audio', data: 'AAA', mimeType: 'audio/wav' },
          null,
          { type: { toString: 1 } },
        ] as never,
      },
      defaultSchemaValidator,
    );
    expect(outcome).toEqual({
      ok: true,
      value: toolOutput({
        value:
          'a\n[image image/png]\n[resource file:///x]\n[resource file:///y]\n[audio content audio/wav]\n[invalid content]\n[unknown content]',
        content: [
          { type: 'text', text: 'a' },
          { type: 'image', data: 'AAA', mimeType: 'image/png' },
          { type: 'resource', uri: 'file:///x' },
          { type: 'resource', uri: 'file:///y', text: 'body' },
          { type: 'text', text: '[audio content audio/wav]' },
          { type: 'text', text: '[invalid content]' },
          { type: 'text', text: '[unknown content]' },
        ],
      }),
    });
  });
});

describe('CallLimiter', () => {
  it('runs at most its limit at once, hands slots over in order, and drops cancelled waiters', async () => {
    const limiter = new CallLimiter(1);
    const first = await limiter.acquire(undefined);
    const controller = new AbortController();
    const cancelled = limiter.acquire(controller.signal);
    let secondRan = false;
    const second = limiter.acquire(undefined).then((release) => {
      secondRan = true;
      return release;
    });
    controller.abort();
    await expect(cancelled).rejects.toSatisfy((error) => CancelledError.isInstance(error));
    expect(secondRan).toBe(false);
    first();
    (await second)();
    expect(secondRan).toBe(true);
    const third = await limiter.acquire(undefined);
    third();
  });
});
