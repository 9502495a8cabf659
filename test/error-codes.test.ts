import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fromErrorData } from '../src/actors/error-data.js';
import { TOOL_CALL_ERROR_CATEGORIES } from '../src/dispatch/error-taxonomy.js';
import { RESERVED_STATUSES } from '../src/dispatch/result.js';
import { CancelledError, SwitchyardError, ToolTimeoutError } from '../src/errors.js';

// Every error class the core and the packages define, read from their errors modules (the only
// place the architecture test lets one be defined), so a new class is checked without a list here.
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BRAND = Symbol.for('switchyard.error');

interface ErrorClass {
  readonly name: string;
  readonly prototype: object;
  readonly CODE?: unknown;
  readonly FORMER_CODES?: readonly string[];
}

async function errorClasses(): Promise<Map<string, ErrorClass>> {
  const modules = [
    join(ROOT, 'src/errors.ts'),
    ...readdirSync(join(ROOT, 'packages')).map((name) =>
      join(ROOT, 'packages', name, 'src/errors.ts'),
    ),
  ].filter((path) => existsSync(path));
  const classes = new Map<string, ErrorClass>();
  for (const path of modules) {
    const module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) {
      if (typeof value === 'function' && value.prototype instanceof Error) {
        classes.set(`${path.slice(ROOT.length + 1)}: ${name}`, value as ErrorClass);
      }
    }
  }
  return classes;
}

const classes = await errorClasses();
const concrete = [...classes].filter(([, errorClass]) => errorClass !== SwitchyardError);

describe('error codes', () => {
  it('finds the error classes of the core and of the packages that have some', () => {
    const where = new Set([...classes.keys()].map((key) => key.split(':')[0]));
    expect(where).toEqual(
      new Set(['src/errors.ts', 'packages/cli/src/errors.ts', 'packages/mcp/src/errors.ts']),
    );
    expect(concrete.length).toBeGreaterThanOrEqual(19);
  });

  it('gives every class a Switchyard base and a code with the SY_ERR_ prefix', () => {
    const wrong = concrete
      .filter(
        ([, errorClass]) =>
          !(errorClass.prototype instanceof SwitchyardError) ||
          typeof errorClass.CODE !== 'string' ||
          !/^SY_ERR_[A-Z][A-Z0-9_]*$/.test(errorClass.CODE),
      )
      .map(([key]) => key);
    expect(wrong).toEqual([]);
  });

  it('gives no two classes one code, and no code (nor former code) to two classes', () => {
    const owners = new Map<string, string[]>();
    for (const [key, errorClass] of concrete) {
      for (const code of [errorClass.CODE as string, ...(errorClass.FORMER_CODES ?? [])]) {
        owners.set(code, [...(owners.get(code) ?? []), key]);
      }
    }
    expect([...owners].filter(([, keys]) => keys.length > 1)).toEqual([]);
  });

  it('uses no code that is also a result status or an error category', () => {
    const reserved = new Set<string>([
      ...RESERVED_STATUSES,
      'error',
      ...TOOL_CALL_ERROR_CATEGORIES,
    ]);
    const clashes = concrete
      .filter(([, errorClass]) => reserved.has(String(errorClass.CODE)))
      .map(([key, errorClass]) => `${key} (${String(errorClass.CODE)})`);
    expect(clashes).toEqual([]);
  });

  it('reads each former code as its class, as an older install or older data carries it', () => {
    const unread = concrete.flatMap(([key, errorClass]) =>
      (errorClass.FORMER_CODES ?? [])
        .filter((code) => {
          const fromOlderCopy = { [BRAND]: true, code, message: 'm', name: errorClass.name };
          const isInstance = (errorClass as unknown as typeof SwitchyardError).isInstance;
          return !isInstance.call(errorClass as never, fromOlderCopy);
        })
        .map((code) => `${key} (${code})`),
    );
    expect(unread).toEqual([]);
  });
});

describe('error data written by an older version', () => {
  it('rebuilds a former code as the class, carrying the current code', () => {
    const rebuilt = fromErrorData({
      name: 'ToolTimeoutError',
      message: 'tool "slow" exceeded its time limit of 50 ms',
      code: 'timeout',
      data: { code: 'timeout', toolName: 'slow', timeoutMs: 50 },
      branded: true,
    });
    expect(rebuilt).toBeInstanceOf(ToolTimeoutError);
    expect(rebuilt).toMatchObject({ code: 'SY_ERR_TOOL_TIMEOUT', toolName: 'slow' });
    expect(ToolTimeoutError.isInstance(rebuilt)).toBe(true);
  });

  it('reads an old code only as its own class', () => {
    const older = { [BRAND]: true, code: 'cancelled', message: 'stop', name: 'CancelledError' };
    expect(CancelledError.isInstance(older)).toBe(true);
    expect(ToolTimeoutError.isInstance(older)).toBe(false);
  });
});
