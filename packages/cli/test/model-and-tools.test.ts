import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';
import { agentCommand } from '../src/agent-command.js';
import { batchCommand } from '../src/batch-command.js';
import { scriptedCalls } from '../src/demo-model.js';
import { EXIT } from '../src/exit-codes.js';
import { captureIo } from './cli-io.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const TOOLS = join(FIXTURES, 'shout-tools.ts');

function tasksFile(lines = '{"id":"a","task":"shout hello"}\n'): string {
  const file = join(tempDir('switchyard-model-tools-'), 'tasks.jsonl');
  writeFileSync(file, lines);
  return file;
}

/** `batch` with the ledger fixture's tools and model module. */
function batchWithLedgerModel(tasks: string): Promise<number> {
  const args = [tasks, '--tools', join(FIXTURES, 'ledger-tools.ts')];
  args.push('--model-module', join(FIXTURES, 'ledger-model.ts'), '--no-workers', '--quiet');
  const env = { LEDGER: join(tempDir('switchyard-ledger-'), 'ledger.txt') };
  return batchCommand(args, captureIo({ env }).io);
}

/** A task line whose text scripts the demo model's calls. */
const scripted = (id: string, calls: string) =>
  `${JSON.stringify({ id, task: `shout twice\n${calls}` })}\n`;

describe('--tools without a model', () => {
  it('is refused by agent: the built-in model would call none of the tools', async () => {
    const capture = captureIo();
    await expect(agentCommand(['shout hello', '--tools', TOOLS], capture.io)).rejects.toMatchObject(
      {
        code: 'SY_ERR_CLI_USAGE',
        message: expect.stringContaining(`--tools ${TOOLS} needs a model`),
      },
    );
    await expect(
      agentCommand(['shout hello', '--tools', TOOLS, '--provider', 'scripted'], capture.io),
    ).rejects.toMatchObject({ code: 'SY_ERR_CLI_USAGE' });
    expect(capture.out()).toBe('');
  });

  it('is refused by batch, before any task runs', async () => {
    const capture = captureIo();
    const args = [tasksFile(), '--tools', TOOLS, '--no-workers', '--quiet'];
    await expect(batchCommand(args, capture.io)).rejects.toMatchObject({
      code: 'SY_ERR_CLI_USAGE',
      message: expect.stringContaining('--model-module'),
    });
    expect(capture.out()).toBe('');
  });

  it('passes with a model: a provider named (whose key is then asked for), or a model module', async () => {
    const capture = captureIo();
    await expect(
      agentCommand(['shout hello', '--tools', TOOLS, '--provider', 'openai'], capture.io),
    ).rejects.toMatchObject({ message: expect.stringContaining('needs OPENAI_API_KEY') });
    expect(await batchWithLedgerModel(tasksFile())).toBe(EXIT.ok);
  });

  it('passes with the built-in model when every task scripts its calls, which it then makes', async () => {
    const capture = captureIo();
    const calls = 'call shout {"text":"hello"}\ncall shout {"text":"again"}';
    const code = await batchCommand(
      [tasksFile(scripted('a', calls)), '--tools', TOOLS, '--no-workers', '--quiet'],
      capture.io,
    );
    expect(code).toBe(EXIT.ok);
    const line = JSON.parse(capture.out()) as { text: string; toolUsage: unknown };
    expect(line.text).toBe('Here is what the tools found:\n- shout: HELLO\n- shout: AGAIN');
    expect(line.toolUsage).toMatchObject({ shout: { calls: 2 } });
    expect(await agentCommand([calls, '--tools', TOOLS, '--no-workers'], captureIo().io)).toBe(
      EXIT.ok,
    );
  });

  it('reads a call only from a line of a tool name and a JSON object', () => {
    expect(scriptedCalls('call Ada about the order\nadd 1 and 2')).toBeUndefined();
    expect(scriptedCalls('plan\n  call shout {}\ncall shout {"text":"a b"}')).toEqual([
      { name: 'shout', arguments: {} },
      { name: 'shout', arguments: { text: 'a b' } },
    ]);
  });

  it('is refused when one task does not script its calls, or scripts them unreadably', async () => {
    const mixed = tasksFile(
      `${scripted('a', 'call shout {"text":"hi"}')}{"id":"b","task":"shout"}\n`,
    );
    await expect(
      batchCommand([mixed, '--tools', TOOLS, '--no-workers', '--quiet'], captureIo().io),
    ).rejects.toMatchObject({ code: 'SY_ERR_CLI_USAGE' });
    const unreadable = tasksFile(scripted('a', 'call shout {text: hi}'));
    await expect(
      batchCommand([unreadable, '--tools', TOOLS, '--no-workers', '--quiet'], captureIo().io),
    ).rejects.toMatchObject({
      code: 'SY_ERR_CLI_USAGE',
      message: expect.stringContaining('the demo model cannot read "call shout {text: hi}"'),
    });
    // A task's text is read for calls only by the demo model: with a model, it is just text.
    expect(await batchWithLedgerModel(unreadable)).toBe(EXIT.ok);
  });

  it('still runs the built-in model with the built-in tools', async () => {
    const capture = captureIo();
    expect(await agentCommand(['what is 2 plus 3?', '--no-workers'], capture.io)).toBe(EXIT.ok);
  });
});
