import type { ToolCallEvent } from 'switchyard';
import { createDispatcher, type Dispatcher } from 'switchyard';
import type { ToolCallProgressEvent } from 'switchyard/dispatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingServer, isAlive } from '../../../test/support/mcp-reference-servers.js';
import { connectMcpServers, type McpClients } from '../src/index.js';

describe('MCP client against the everything reference server (stdio)', () => {
  let mcp: McpClients;
  let dispatcher: Dispatcher;
  const events: ToolCallEvent[] = [];

  beforeAll(async () => {
    mcp = await connectMcpServers([everythingServer()]);
    dispatcher = createDispatcher({ registry: mcp.registry, executors: [mcp.executor] });
    dispatcher.events$.subscribe((event) => events.push(event));
  });
  afterAll(async () => {
    const pid = await mcp.connection('everything')?.pid();
    await mcp.close();
    if (pid !== null && pid !== undefined) expect(isAlive(pid)).toBe(false);
  });

  it('discovers the tools as server__tool with schemas and untrusted safety', () => {
    const names = mcp.registry.names();
    expect(names).toContain('everything__echo');
    expect(names).toContain('everything__trigger-long-running-operation');
    const echo = mcp.registry.get('everything__echo');
    expect(echo?.executor).toEqual({ kind: 'mcp_server', server: 'everything' });
    expect(echo?.inputSchema).toMatchObject({ required: ['message'] });
    // The server says readOnlyHint: true, but it is not trusted.
    expect(echo?.safety.readOnly).toBe(false);
    expect(echo?.safety.idempotent).toBe(false);
    expect(echo?.annotations.mcp).toMatchObject({ tool: 'echo', hints: { readOnlyHint: true } });
    expect(mcp.connection('everything')?.stderr).toMatch(/STDIO/);
  });

  it('calls a tool by its original name and names the server on the result', async () => {
    const result = await dispatcher.dispatch({
      id: 'c1',
      name: 'everything__echo',
      arguments: '{"message":"hi"}',
    });
    expect(result).toMatchObject({
      ok: true,
      status: 'ok',
      executor: 'mcp_server',
      toolName: 'everything__echo',
      renderedResult: 'Echo: hi',
      audit: { executor: { kind: 'mcp_server', serverName: 'everything' } },
    });
    const finished = events.find(
      (event) =>
        event.toolCallId === 'c1' &&
        event.type === 'tool_call_update' &&
        event.status !== 'in_progress',
    );
    expect(finished).toMatchObject({ executor: 'mcp_server', status: 'completed' });
    expect(
      events.find((event) => event.toolCallId === 'c1' && event.type === 'tool_call_audit'),
    ).toMatchObject({
      audit: { executor: { serverName: 'everything' } },
    });
  });

  it('refuses arguments that break the server schema before anything is sent', async () => {
    const result = await dispatcher.dispatch({
      id: 'c2',
      name: 'everything__echo',
      arguments: '{"message":3}',
    });
    expect(result).toMatchObject({ ok: false, status: 'schema_violation', executor: null });
  });

  it('returns structuredContent as the value, checked against the outputSchema', async () => {
    const result = await dispatcher.dispatch({
      id: 'c3',
      name: 'everything__get-structured-content',
      arguments: '{"location":"Chicago"}',
    });
    expect(result.ok).toBe(true);
    expect(result.result).toMatchObject({ conditions: expect.any(String) });
  });

  it('bounds a large result with the artifact rule of local tools', async () => {
    const message = 'x'.repeat(50_000);
    const result = await dispatcher.dispatch({
      id: 'c4',
      name: 'everything__echo',
      arguments: JSON.stringify({ message }),
    });
    expect(result.ok).toBe(true);
    expect(result.renderedResult.length).toBeLessThan(21_000);
    expect(result.artifacts?.[0]).toMatchObject({ id: 'artifact_c4', length: 50_006 });
  });

  it('turns progress notifications into tool_call_progress events', async () => {
    const result = await dispatcher.dispatch({
      id: 'c5',
      name: 'everything__trigger-long-running-operation',
      arguments: '{"duration":0.2,"steps":4}',
    });
    expect(result.ok).toBe(true);
    const progress = events.filter(
      (event): event is ToolCallProgressEvent =>
        event.type === 'tool_call_progress' && event.toolCallId === 'c5',
    );
    // The last notification races the result on the wire; the SDK drops progress after the result.
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress.map((event) => event.progress)).toEqual(
      [1, 2, 3, 4].slice(0, progress.length).map((step) => ({ progress: step, total: 4 })),
    );
  });

  it('cancels a running call without stopping the server', async () => {
    const pid = await mcp.connection('everything')?.pid();
    const controller = new AbortController();
    const subscription = dispatcher.events$.subscribe((event) => {
      if (event.type === 'tool_call_progress' && event.toolCallId === 'c6')
        controller.abort(new Error('user gave up'));
    });
    const result = await dispatcher.dispatch(
      {
        id: 'c6',
        name: 'everything__trigger-long-running-operation',
        arguments: '{"duration":20,"steps":200}',
      },
      { signal: controller.signal },
    );
    subscription.unsubscribe();
    expect(result).toMatchObject({ ok: false, status: 'cancelled', errorCategory: 'cancelled' });
    const after = await dispatcher.dispatch({
      id: 'c7',
      name: 'everything__echo',
      arguments: '{"message":"still here"}',
    });
    expect(after.ok).toBe(true);
    expect(await mcp.connection('everything')?.pid()).toBe(pid);
  });
});

describe('MCP client when the server dies or is slow', () => {
  it('yields one timeout result and keeps the server for later calls', async () => {
    const mcp = await connectMcpServers([everythingServer({ timeoutMs: 300 })]);
    try {
      const dispatcher = createDispatcher({ registry: mcp.registry, executors: [mcp.executor] });
      const pid = await mcp.connection('everything')?.pid();
      const result = await dispatcher.dispatch({
        id: 't1',
        name: 'everything__trigger-long-running-operation',
        arguments: '{"duration":20,"steps":2}',
      });
      expect(result).toMatchObject({
        ok: false,
        status: 'timeout',
        errorCategory: 'timeout',
        executor: 'mcp_server',
      });
      const after = await dispatcher.dispatch({
        id: 't2',
        name: 'everything__get-sum',
        arguments: '{"a":1,"b":2}',
      });
      expect(after).toMatchObject({ ok: true, renderedResult: 'The sum of 1 and 2 is 3.' });
      expect(await mcp.connection('everything')?.pid()).toBe(pid);
    } finally {
      await mcp.close();
    }
  });

  it('gives every in-flight call one mcp_server_error when the server is killed, then reconnects', async () => {
    const mcp = await connectMcpServers([everythingServer()]);
    try {
      const dispatcher = createDispatcher({ registry: mcp.registry, executors: [mcp.executor] });
      const pid = (await mcp.connection('everything')?.pid()) as number;
      let started = 0;
      let kill: () => void = () => {};
      const bothStarted = new Promise<void>((resolve) => {
        kill = resolve;
      });
      const subscription = dispatcher.events$.subscribe((event) => {
        if (event.type === 'tool_call_progress' && event.progress.progress === 1 && ++started === 2)
          kill();
      });
      const calls = ['k1', 'k2'].map((id) =>
        dispatcher.dispatch({
          id,
          name: 'everything__trigger-long-running-operation',
          arguments: '{"duration":20,"steps":200}',
        }),
      );
      await bothStarted;
      process.kill(pid, 'SIGKILL');
      const results = await Promise.all(calls);
      subscription.unsubscribe();
      expect(
        results.map((result) => [result.toolCallId, result.status, result.errorCategory]),
      ).toEqual([
        ['k1', 'executor_error', 'mcp_server_error'],
        ['k2', 'executor_error', 'mcp_server_error'],
      ]);
      const after = await dispatcher.dispatch({
        id: 'k3',
        name: 'everything__echo',
        arguments: '{"message":"back"}',
      });
      expect(after).toMatchObject({ ok: true, renderedResult: 'Echo: back' });
      const newPid = await mcp.connection('everything')?.pid();
      expect(newPid).not.toBe(pid);
    } finally {
      await mcp.close();
    }
  });
});
