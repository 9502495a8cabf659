import { describe, expect, it } from 'vitest';
import {
  InvalidArgumentError,
  InvalidOptionError,
  SwitchyardError,
  ToolDefinitionError,
} from '../src/errors.js';
import {
  composeToolCallers,
  createDispatcher,
  createToolRegistry,
  dispatchTurn,
  type ToolCaller,
  type ToolRegistry,
  toolsUseMiddleware,
} from '../src/index.js';
import { canonicalJson } from '../src/tools/canonical-json.js';
import { addTool } from './support/tools.js';

/** The error `run` throws (synchronously or by rejecting), for assertions on class and fields. */
async function thrownBy(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('misuse throws Switchyard errors a caller can catch by class and code', () => {
  it('composeToolCallers names the layers option for a layer that is not a function', async () => {
    const error = await thrownBy(() =>
      composeToolCallers([(call, next) => next(call), 'nope' as unknown as ToolCaller]),
    );
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error).toBeInstanceOf(SwitchyardError);
    expect(error).toMatchObject({ code: 'SY_ERR_INVALID_OPTION', option: 'layers' });
    expect(InvalidOptionError.isInstance(error)).toBe(true);
  });

  it('toolsUseMiddleware names the transform and the registry it was given wrong', async () => {
    const registry = createToolRegistry([addTool]);
    expect(await thrownBy(() => toolsUseMiddleware(registry, 7 as never))).toMatchObject({
      code: InvalidOptionError.CODE,
      option: 'transform',
    });
    const wrongRegistry = await thrownBy(() =>
      toolsUseMiddleware({} as ToolRegistry, (tool) => tool),
    );
    expect(wrongRegistry).toBeInstanceOf(InvalidOptionError);
    expect(wrongRegistry).toMatchObject({ option: 'registry' });
  });

  it('dispatchTurn names maxConcurrentTools when it is not a positive integer', async () => {
    const dispatcher = createDispatcher({ registry: createToolRegistry([addTool]) });
    const error = await thrownBy(() => dispatchTurn([], { dispatcher, maxConcurrentTools: 1.5 }));
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error).toMatchObject({ code: 'SY_ERR_INVALID_OPTION', option: 'maxConcurrentTools' });
  });

  it('canonicalJson refuses a cycle with an InvalidArgumentError naming the value', async () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = { back: cyclic };
    const error = await thrownBy(() => canonicalJson(cyclic));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error).toMatchObject({ code: 'SY_ERR_INVALID_ARGUMENT', argument: 'value' });
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(InvalidOptionError.isInstance(error)).toBe(false);
  });

  it('an InvalidArgumentError from another copy of the package is recognised by brand and code', () => {
    const foreign = Object.assign(new Error('from a duplicate install'), {
      [Symbol.for('switchyard.error')]: true,
      code: 'SY_ERR_INVALID_ARGUMENT',
    });
    expect(InvalidArgumentError.isInstance(foreign)).toBe(true);
    expect(ToolDefinitionError.isInstance(foreign)).toBe(false);
  });
});
