import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject, ToolCallResult } from 'switchyard';
import { createDispatcher, createToolRegistry } from 'switchyard';
import type { AnyTool } from 'switchyard/tools';
import { tempDir } from '../../../test/support/temp-dir.js';

/** A root with a few files, a link out of it, and a secret beside it that no tool may read. */
export function hostFixture() {
  const base = tempDir('switchyard-host-');
  const root = join(base, 'root');
  const outside = join(base, 'outside');
  mkdirSync(join(root, 'src', 'nested'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'TOP-SECRET\n');
  writeFileSync(join(root, 'notes.txt'), 'one\ntwo\nthree\nfour\nfive\n');
  writeFileSync(
    join(root, 'src', 'main.ts'),
    'export function greet(name: string) {\n  return name;\n}\n',
  );
  writeFileSync(join(root, 'src', 'nested', 'deep.txt'), 'needle in a haystack\n');
  writeFileSync(join(root, '.hidden'), 'needle hidden\n');
  symlinkSync(outside, join(root, 'escape'));
  symlinkSync(join(outside, 'secret.txt'), join(root, 'secret-link.txt'));
  symlinkSync(join(root, 'notes.txt'), join(root, 'inner-link.txt'));
  return { base, root, outside };
}

/** Dispatches one call to `tools` and returns its result. */
export async function callTool(
  tools: readonly AnyTool[],
  name: string,
  args: JsonObject,
): Promise<ToolCallResult> {
  const dispatcher = createDispatcher({ registry: createToolRegistry([...tools]) });
  return dispatcher.dispatch({ id: `call_${name}`, name, arguments: args });
}

/** The typed denial a refused host-tool call carries on its value. */
export function denialOf(result: ToolCallResult) {
  const value = result.result as {
    status?: string;
    denial?: { gate: string; deniedPaths: string[] };
  };
  return value?.status === 'refused' ? value.denial : undefined;
}
