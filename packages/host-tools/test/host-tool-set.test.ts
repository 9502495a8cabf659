import { InvalidOptionError } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { commandTools, gitTools, readTools, stdlibTools } from '../src/index.js';
import { renderAsText } from '../src/render-as-text.js';
import { callTool, hostFixture } from './host-fixture.js';

describe('outputFormat', () => {
  it("'text' renders fields as lines and multi-line strings as blocks; the value stays", async () => {
    const { root } = hostFixture();
    const tools = readTools({ root, outputFormat: 'text' });
    const read = await callTool(tools, 'read_file', { path: 'notes.txt', end_line: 2 });
    expect(read.result).toMatchObject({ content: 'one\ntwo\n' });
    expect(read.observation).toContain('content: |\n  one\n  two\n');
    expect(read.observation).not.toContain('\\n');
    const refused = await callTool(tools, 'read_file', { path: '../outside/secret.txt' });
    expect(refused.observation).toContain('[refused]');
  });

  it("'json' (the default) leaves the dispatcher's rendering alone", async () => {
    const json = stdlibTools({ workers: false, outputFormat: 'json' });
    const plain = stdlibTools({ workers: false });
    const args = { expression: '6 * 7' };
    const [a, b] = await Promise.all([
      callTool(json, 'math_calc', args),
      callTool(plain, 'math_calc', args),
    ]);
    expect(a.observation).toBe(b.observation);
    expect(a.observation).toBe('{"expression":"6 * 7","value":42}');
    const text = await callTool(
      stdlibTools({ workers: false, outputFormat: 'text' }),
      'math_calc',
      args,
    );
    expect(text.observation).toBe('expression: 6 * 7\nvalue: 42');
    expect(text.result).toEqual({ expression: '6 * 7', value: 42 });
  });

  it('refuses an unknown format, and outputFormat together with resultFormatter', () => {
    expect(() => stdlibTools({ outputFormat: 'yaml' as never })).toThrow(InvalidOptionError);
    expect(() => stdlibTools({ outputFormat: 'text', resultFormatter: () => 'x' })).toThrow(
      /not both/,
    );
  });

  it('renderAsText: strings as they are, arrays as items, nested values as JSON', () => {
    expect(renderAsText('plain')).toBe('plain');
    expect(renderAsText([1, 'a', { b: 2 }])).toBe('- 1\n- a\n- {"b":2}');
    expect(renderAsText({ a: { b: [1] }, s: 'x', n: null, u: undefined })).toBe(
      'a: {"b":[1]}\ns: x\nn: null',
    );
    expect(renderAsText({ list: ['x\ny'] })).toBe('list: ["x\\ny"]');
    expect(renderAsText(7)).toBe('7');
  });
});

describe('the common options on every set', () => {
  it('names, descriptions, groups, annotations, namespace and deferLoading apply to each factory', async () => {
    const { root } = hostFixture();
    const common = {
      annotations: { '*': { workflow: 'audit' } },
      namespace: 'host',
      deferLoading: true,
    } as const;
    const commands = commandTools({ cwd: root, ...common, names: { run_command: 'release_run' } });
    const sets = [
      readTools({ root, ...common, disabledTools: ['git_inspect'] }),
      commands.tools,
      gitTools({
        repo: root,
        ...common,
        enabledTools: ['git'],
        descriptions: { git_status: 'st' },
      }),
      stdlibTools({ ...common, enabledTools: ['math_calc', 'sha256'], workers: false }),
    ];
    for (const tools of sets) {
      expect(tools.length).toBeGreaterThan(0);
      for (const tool of tools) {
        expect(tool.namespace).toBe('host');
        expect(tool.deferLoading).toBe(true);
        expect(tool.annotations).toMatchObject({ workflow: 'audit' });
        expect(typeof tool.annotations.logicalName).toBe('string');
      }
    }
    const [read, command, git, stdlib] = sets.map((tools) => tools.map((tool) => tool.name));
    expect(read).not.toContain('git_inspect');
    expect(command).toContain('release_run');
    expect(git).toContain('git_status');
    expect(sets[2]?.find((tool) => tool.name === 'git_status')?.description).toBe('st');
    expect(stdlib).toEqual(['math_calc', 'sha256']);
    expect(() => readTools({ root, enabledTools: ['command'] })).toThrow(InvalidOptionError);
    await commands.close();
  });
});
