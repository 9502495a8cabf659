import { checkBoolean, checkPositive, optionsObject } from 'switchyard/extension';
import type { AnyTool } from 'switchyard/tools';
import { compileLinearRegex } from 'switchyard/tools';
import { evaluateArithmetic } from './arithmetic.js';
import {
  buildHostToolSet,
  type HostToolDefinition,
  type HostToolSetOptions,
} from './host-tool-set.js';
import { queryJson } from './json-query.js';
import { createRootScope } from './root-scope.js';
import { sha256Digest } from './sha256-digest.js';
import { visionOcrTool } from './vision-ocr-tool.js';

/** Options of `stdlibTools`. */
export interface StdlibToolsOptions extends HostToolSetOptions {
  /** Run `sha256` on the worker pool (the dispatcher needs a worker executor). Default true. */
  readonly workers?: boolean;
  /** Directory `vision_ocr` reads images from. Without it `vision_ocr` is left out. */
  readonly root?: string;
  /** The tesseract program for `vision_ocr`. Default `tesseract`. */
  readonly tesseract?: string;
  /** Longest one OCR may run. Default 60 000 ms. */
  readonly ocrTimeoutMs?: number;
  /** Largest image `vision_ocr` reads. Default 20 MiB. */
  readonly maxImageBytes?: number;
}

const FACTORY = 'stdlibTools';
const PURE = { sideEffectLevel: 'none' } as const;
const closed = (properties: Record<string, unknown>, required: string[]) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

const mathCalc: HostToolDefinition = {
  key: 'math_calc',
  group: 'stdlib',
  build: () => ({
    name: 'math_calc',
    description:
      'Evaluate an arithmetic expression exactly as written: + - * / % ^, parentheses, pi, e, and functions such as sqrt, abs, min, max, round, log, ln, sin.',
    inputSchema: closed({ expression: { type: 'string', minLength: 1, maxLength: 1000 } }, [
      'expression',
    ]),
    outputSchema: closed({ expression: { type: 'string' }, value: { type: 'number' } }, [
      'expression',
      'value',
    ]),
    safety: PURE,
    handler: ({ expression }: { expression: string }) => ({
      expression,
      value: evaluateArithmetic(expression),
    }),
  }),
};

const regexMatch: HostToolDefinition = {
  key: 'regex_match',
  group: 'stdlib',
  build: () => ({
    name: 'regex_match',
    description:
      'Find the matches of a regular expression (RE2 syntax, linear time: no backreferences or lookaround) in a text, with their positions and groups.',
    inputSchema: closed(
      {
        pattern: { type: 'string', minLength: 1, maxLength: 1000 },
        text: { type: 'string', maxLength: 1_000_000 },
        flags: { type: 'string', pattern: '^[imsu]*$' },
        max_matches: { type: 'integer', minimum: 1, maximum: 10_000 },
      },
      ['pattern', 'text'],
    ),
    outputSchema: closed(
      {
        count: { type: 'integer' },
        matches: { type: 'array', items: { type: 'object' } },
        truncated: { type: 'boolean' },
      },
      ['count', 'matches', 'truncated'],
    ),
    safety: PURE,
    handler: ({
      pattern,
      text,
      flags,
      max_matches: limit = 1000,
    }: {
      pattern: string;
      text: string;
      flags?: string;
      max_matches?: number;
    }) => {
      const found = compileLinearRegex(pattern, flags).matchAll(text, limit + 1);
      const matches = found.slice(0, limit).map((match) => ({
        match: match.match,
        index: match.index,
        groups: match.groups,
        ...(match.named === null ? {} : { named: match.named }),
      }));
      return { count: matches.length, matches, truncated: found.length > limit };
    },
  }),
};

const countCharacters: HostToolDefinition = {
  key: 'count_characters',
  group: 'stdlib',
  build: () => ({
    name: 'count_characters',
    description:
      'Count how many times one character occurs in a text (exactly, by Unicode code point; case-sensitive).',
    inputSchema: closed(
      {
        text: { type: 'string', maxLength: 1_000_000 },
        char: { type: 'string', minLength: 1, maxLength: 2 },
      },
      ['text', 'char'],
    ),
    outputSchema: closed({ char: { type: 'string' }, count: { type: 'integer' } }, [
      'char',
      'count',
    ]),
    safety: PURE,
    handler: ({ text, char }: { text: string; char: string }) => {
      if ([...char].length !== 1) throw new Error('char must be exactly one character');
      let count = 0;
      for (const each of text) if (each === char) count += 1;
      return { char, count };
    },
  }),
};

function sha256Tool(workers: boolean): HostToolDefinition {
  return {
    key: 'sha256',
    group: 'stdlib',
    build: () => ({
      name: 'sha256',
      description: 'Lowercase hex SHA-256 of a text (UTF-8), optionally re-hashed `rounds` times.',
      inputSchema: closed(
        {
          text: { type: 'string', maxLength: 1_000_000 },
          rounds: { type: 'integer', minimum: 1, maximum: 100_000 },
        },
        ['text'],
      ),
      outputSchema: closed(
        { digest: { type: 'string', pattern: '^[0-9a-f]{64}$' }, rounds: { type: 'integer' } },
        ['digest', 'rounds'],
      ),
      safety: PURE,
      timeoutMs: 10_000,
      ...(workers
        ? {
            executor: {
              kind: 'worker' as const,
              module: siblingModule('sha256-digest'),
              export: 'sha256Digest',
            },
          }
        : { handler: sha256Digest }),
    }),
  };
}

const jsonQuery: HostToolDefinition = {
  key: 'json_query',
  group: 'stdlib',
  build: () => ({
    name: 'json_query',
    description:
      'Select values from a JSON document with a JSONPath subset: $.a.b, $.items[0], $.items[-1], $.items[*].name, $["odd key"], $..name.',
    inputSchema: closed(
      {
        json: { type: 'string', maxLength: 5_000_000, description: 'The JSON document as text.' },
        path: { type: 'string', minLength: 1, maxLength: 1000 },
      },
      ['json', 'path'],
    ),
    outputSchema: closed({ count: { type: 'integer' }, values: { type: 'array' } }, [
      'count',
      'values',
    ]),
    safety: PURE,
    handler: ({ json, path }: { json: string; path: string }) => {
      let document: unknown;
      try {
        document = JSON.parse(json);
      } catch (error) {
        throw new Error(`json is not valid JSON: ${(error as Error).message}`);
      }
      const values = queryJson(document, path);
      return { count: values.length, values };
    },
  }),
};

/**
 * Deterministic tools with input and output schemas (group `stdlib`): `math_calc`, `regex_match`,
 * `count_characters`, `sha256` (on the worker pool unless `workers: false`), `json_query`, and,
 * when `root` is given, `vision_ocr` (tesseract). Throws `InvalidOptionError` naming a bad option.
 *
 * @example
 * const registry = createToolRegistry(stdlibTools({ workers: false }));
 */
export function stdlibTools(options: StdlibToolsOptions = {}): AnyTool[] {
  const settings = optionsObject(FACTORY, options);
  const workers =
    settings.workers === undefined ? true : checkBoolean(FACTORY, 'workers', settings.workers);
  const definitions = [mathCalc, regexMatch, countCharacters, sha256Tool(workers), jsonQuery];
  if (settings.root !== undefined) {
    definitions.push(
      visionOcrTool({
        scope: createRootScope(settings.root),
        tesseract: settings.tesseract ?? 'tesseract',
        timeoutMs:
          settings.ocrTimeoutMs === undefined
            ? 60_000
            : checkPositive(FACTORY, 'ocrTimeoutMs', settings.ocrTimeoutMs),
        maxImageBytes:
          settings.maxImageBytes === undefined
            ? 20 * 1024 * 1024
            : checkPositive(FACTORY, 'maxImageBytes', settings.maxImageBytes, { integer: true }),
      }),
    );
  }
  return buildHostToolSet(FACTORY, definitions, settings);
}

/**
 * A module beside this one, loaded by path in a worker thread: `.ts` when running from the sources
 * (tests), `.js` built.
 */
function siblingModule(name: string): URL {
  const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`./${name}${extension}`, import.meta.url);
}
