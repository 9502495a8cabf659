import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createToolRegistry } from 'switchyard';
import { createScriptedModel } from 'switchyard/testing';
import { describe, expect, it } from 'vitest';
import { referenceServer } from '../../../test/support/mcp-reference-servers.js';
import { tempDir } from '../../../test/support/temp-dir.js';
import { agentCommand, runAgentCommand } from '../src/agent-command.js';
import { parseCommandLine } from '../src/command-line.js';
import { EXIT } from '../src/exit-codes.js';
import { mcpServersFrom } from '../src/mcp-server-options.js';
import { RUN_SPEC, runCommand } from '../src/run-command.js';
import { captureIo } from './cli-io.js';

const everything = `${process.execPath} ${referenceServer('server-everything')} stdio`;

function lineOf(args: string[]) {
  const line = parseCommandLine(RUN_SPEC, ['batch.jsonl', ...args]);
  if (line === null) throw new Error('help');
  return line;
}

describe('--mcp and --mcp-config', () => {
  it('reads servers from flags (commands split like a shell, URLs as http) and from a file', async () => {
    const directory = tempDir('switchyard-mcp-config-');
    writeFileSync(
      join(directory, 'servers.json'),
      JSON.stringify([
        { name: 'fs', transport: 'stdio', command: ['mcp-server-filesystem', '/tmp/p'] },
        { name: 'gh', transport: 'http', url: 'http://127.0.0.1:3030/mcp' },
      ]),
    );
    const servers = await mcpServersFrom(
      lineOf([
        '--mcp-config',
        'servers.json',
        '--mcp',
        `one=node "my server.js" --flag='a b' plain\\ word`,
        '--mcp',
        'web=https://example.test/mcp',
      ]),
      directory,
    );
    expect(servers).toEqual([
      {
        name: 'fs',
        transport: 'stdio',
        command: 'mcp-server-filesystem',
        args: ['/tmp/p'],
        cwd: directory,
      },
      { name: 'gh', transport: 'http', url: 'http://127.0.0.1:3030/mcp' },
      {
        name: 'one',
        transport: 'stdio',
        command: 'node',
        args: ['my server.js', '--flag=a b', 'plain word'],
        cwd: directory,
      },
      { name: 'web', transport: 'http', url: 'https://example.test/mcp' },
    ]);
  });

  it('refuses a malformed flag as a usage error and a bad file as unreadable input', async () => {
    await expect(mcpServersFrom(lineOf(['--mcp', 'no-equals-sign']))).rejects.toMatchObject({
      code: 'SY_ERR_CLI_USAGE',
    });
    await expect(mcpServersFrom(lineOf(['--mcp', 'x=node "open']))).rejects.toMatchObject({
      code: 'SY_ERR_CLI_USAGE',
    });
    const directory = tempDir('switchyard-mcp-config-');
    writeFileSync(join(directory, 'bad.json'), '{"servers": 1}');
    await expect(
      mcpServersFrom(lineOf(['--mcp-config', 'bad.json']), directory),
    ).rejects.toMatchObject({ code: 'SY_ERR_CLI_INPUT' });
    await expect(
      mcpServersFrom(lineOf(['--mcp-config', 'missing.json']), directory),
    ).rejects.toMatchObject({ code: 'SY_ERR_CLI_INPUT' });
  });

  it('switchyard run dispatches a batch line to an MCP server given with --mcp', async () => {
    const directory = tempDir('switchyard-run-mcp-');
    const batch = join(directory, 'batch.jsonl');
    writeFileSync(
      batch,
      `${JSON.stringify([
        { id: 'e1', name: 'everything__echo', arguments: { message: 'over MCP' } },
        { id: 'e2', name: 'everything__echo', arguments: { wrong: 1 } },
      ])}\n`,
    );
    const capture = captureIo({ cwd: directory });
    const code = await runCommand(
      [batch, '--json', '--no-workers', '--no-progress', '--mcp', `everything=${everything}`],
      capture.io,
    );
    expect(code).toBe(EXIT.failures);
    const results = capture
      .out()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.summary === undefined);
    expect(results).toMatchObject([
      { toolCallId: 'e1', status: 'ok', executor: 'mcp_server' },
      { toolCallId: 'e2', ok: false, errorCategory: 'schema_validation' },
    ]);
  });

  it('a bad server entry is a usage error before anything runs', async () => {
    const capture = captureIo();
    await expect(
      runCommand(['-', '--no-progress', '--mcp', 'bad__name=node x.js'], capture.io),
    ).rejects.toMatchObject({ code: 'SY_ERR_INVALID_OPTION', option: 'servers[0].name' });
  });

  it('switchyard agent hands its servers to the agent loop, which offers and closes them', async () => {
    const model = createScriptedModel({
      turns: [
        { toolCalls: [{ id: 'c1', name: 'everything__echo', arguments: { message: 'hi' } }] },
        { text: 'echoed' },
      ],
    });
    const err = new PassThrough();
    const progress: string[] = [];
    err.on('data', (chunk: Buffer) => progress.push(chunk.toString()));
    const run = await runAgentCommand({
      task: 'echo',
      model,
      tools: createToolRegistry([]),
      mcpServers: await mcpServersFrom(lineOf(['--mcp', `everything=${everything}`])),
      eager: true,
      json: false,
      out: new PassThrough(),
      err,
    });
    expect(run.status).toBe('completed');
    expect(run.results[0]).toMatchObject({ ok: true, renderedResult: 'Echo: hi' });
    expect(progress.join('')).toContain('✓ everything__echo ok');
  });

  it('switchyard agent connects --mcp servers through the loop, and fails when one is unreachable', async () => {
    const capture = captureIo();
    const code = await agentCommand(
      ['add 2 and 3', '--no-workers', '--json', '--mcp', `everything=${everything}`],
      capture.io,
    );
    expect(code).toBe(EXIT.ok);
    expect(JSON.parse(capture.out())).toMatchObject({ status: 'completed' });
    await expect(
      agentCommand(
        ['add 2 and 3', '--no-workers', '--mcp', `gone=${process.execPath} -e ""`],
        captureIo().io,
      ),
    ).rejects.toMatchObject({ code: 'SY_ERR_MCP_CONNECT', server: 'gone' });
  });
});
