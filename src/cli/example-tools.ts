import { compileLinearRegex } from '../host-tools/linear-regex.js';
import { defineTool } from '../tools/define-tool.js';
import type { AnyTool } from '../tools/tool-registry.js';
import { sha256Rounds } from './sha256-rounds.js';

type Operation = 'add' | 'subtract' | 'multiply' | 'divide' | 'power';

/** Arithmetic on two numbers; dividing by zero is a tool error the model sees. */
export const calculateTool = defineTool<{ op: Operation; a: number; b: number }, number>({
  name: 'calculate',
  description: 'Apply an arithmetic operation to two numbers.',
  inputSchema: {
    type: 'object',
    properties: {
      op: { type: 'string', enum: ['add', 'subtract', 'multiply', 'divide', 'power'] },
      a: { type: 'number' },
      b: { type: 'number' },
    },
    required: ['op', 'a', 'b'],
    additionalProperties: false,
  },
  safety: { sideEffectLevel: 'none' },
  handler: ({ op, a, b }) => {
    switch (op) {
      case 'add':
        return a + b;
      case 'subtract':
        return a - b;
      case 'multiply':
        return a * b;
      case 'divide':
        if (b === 0) throw new Error('division by zero');
        return a / b;
      case 'power':
        return a ** b;
    }
  },
});

/** Shorthand for `calculate` with op `add`, the name most demos use. */
export const addTool = defineTool<{ a: number; b: number }, number>({
  name: 'add',
  description: 'Add two numbers.',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  safety: { sideEffectLevel: 'none' },
  handler: ({ a, b }) => a + b,
});

/**
 * Regular-expression matching on a linear-time engine (RE2 semantics), so no pattern can stall the
 * main thread: a bad pattern, or one RE2 does not support (backreferences, lookaround), is a tool error.
 */
export const regexMatchTool = defineTool<
  { pattern: string; text: string; flags?: string },
  { matches: string[]; groups: (Record<string, string> | null)[] }
>({
  name: 'regex_match',
  description:
    'Find all matches of a regular expression (RE2 syntax: no backreferences or lookaround) in a text.',
  inputSchema: {
    type: 'object',
    properties: {
      pattern: { type: 'string', minLength: 1, maxLength: 500 },
      text: { type: 'string', maxLength: 100_000 },
      flags: { type: 'string', pattern: '^[imsu]*$' },
    },
    required: ['pattern', 'text'],
    additionalProperties: false,
  },
  safety: { sideEffectLevel: 'none' },
  timeoutMs: 2000,
  handler: ({ pattern, text, flags = '' }) => {
    const found = compileLinearRegex(pattern, flags).matchAll(text, Number.MAX_SAFE_INTEGER);
    return {
      matches: found.map((match) => match.match),
      groups: found.map((match) =>
        match.named === null
          ? null
          : Object.fromEntries(
              Object.entries(match.named).map(([key, value]) => [key, value ?? '']),
            ),
      ),
    };
  },
});

const SHA256_SCHEMA = {
  type: 'object',
  properties: {
    text: { type: 'string', maxLength: 1_000_000 },
    rounds: { type: 'integer', minimum: 1, maximum: 100_000 },
  },
  required: ['text'],
  additionalProperties: false,
} as const;

/** SHA-256 (optionally iterated) of a text, computed on the worker pool. */
export const sha256Tool = defineTool({
  name: 'sha256',
  description: 'Hex SHA-256 digest of a text, iterated `rounds` times (default 1).',
  inputSchema: SHA256_SCHEMA,
  safety: { sideEffectLevel: 'none' },
  timeoutMs: 10_000,
  executor: {
    kind: 'worker',
    module: new URL('./sha256-worker.js', import.meta.url),
    export: 'sha256',
  },
});

/** The same digest on the main thread, for machines where workers are turned off. */
export const sha256InlineTool = defineTool<{ text: string; rounds?: number }, string>({
  name: 'sha256',
  description: sha256Tool.description,
  inputSchema: SHA256_SCHEMA,
  safety: { sideEffectLevel: 'none' },
  timeoutMs: 10_000,
  handler: ({ text, rounds = 1 }) => sha256Rounds(text, rounds),
});

/** Waits, then answers: an I/O-bound stand-in that honours cancellation. */
export const waitTool = defineTool<{ ms: number }, { waitedMs: number }>({
  name: 'wait',
  description: 'Wait for a number of milliseconds (at most 5000), then return.',
  inputSchema: {
    type: 'object',
    properties: { ms: { type: 'integer', minimum: 0, maximum: 5000 } },
    required: ['ms'],
    additionalProperties: false,
  },
  safety: { readOnly: true },
  handler: ({ ms }, runtime) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve({ waitedMs: ms }), ms);
      runtime.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(runtime.signal.reason);
      });
    }),
});

/** The tools `switchyard run` and `switchyard agent` offer out of the box. */
export function exampleTools(options: { workers: boolean }): AnyTool[] {
  return [
    addTool,
    calculateTool,
    regexMatchTool,
    options.workers ? sha256Tool : sha256InlineTool,
    waitTool,
  ];
}
