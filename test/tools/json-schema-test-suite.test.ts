import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import { errorMessage, InvalidOptionError, ToolDefinitionError } from '../../src/errors.js';
import { defineTool } from '../../src/tools/define-tool.js';
import {
  type FormatMode,
  type SchemaResource,
  SchemaValidator,
} from '../../src/tools/schema-validator.js';
import { type AnyTool, createToolRegistry } from '../../src/tools/tool-registry.js';
import {
  DIALECT_URI,
  type SuiteDraft,
  type SuiteFile,
  suiteFiles,
  suiteRemotes,
} from './support/json-schema-suite.js';
import { AJV_GETS_WRONG } from './support/json-schema-suite-skips.js';

interface Outcome {
  passed: number;
  skipped: string[];
  mismatches: string[];
  /** Skip entries that covered a failing case. */
  usedSkips: Set<string>;
}

type Verdict = 'valid' | 'invalid' | string;

function record(outcome: Outcome, id: string, groupId: string, expected: boolean, got: Verdict) {
  if (got === (expected ? 'valid' : 'invalid')) {
    outcome.passed += 1;
  } else if (AJV_GETS_WRONG.has(groupId)) {
    outcome.skipped.push(id);
    outcome.usedSkips.add(groupId);
  } else {
    outcome.mismatches.push(`${id}: expected ${expected ? 'valid' : 'invalid'}, got ${got}`);
  }
}

/** Each case becomes a tool whose one argument `value` must match the case's schema. */
async function runFile(file: SuiteFile, draft: SuiteDraft, formats: FormatMode, outcome: Outcome) {
  const key = (index: number) => `https://suite.invalid/${file.name}/${index}.json`;
  const remotes = suiteRemotes(draft);
  const shared: Record<string, SchemaResource> = { ...remotes };
  file.groups.forEach((group, index) => {
    shared[key(index)] = group.schema;
  });
  const sharedValidator = new SchemaValidator({ formats, schemas: shared });
  for (const [index, group] of file.groups.entries()) {
    const groupId = `${file.name} › ${group.description}`;
    const name = `case_${index}`;
    const spec = {
      name,
      description: group.description,
      inputSchema: {
        $schema: DIALECT_URI[draft],
        type: 'object',
        required: ['value'],
        properties: { value: { $ref: key(index) } },
      },
      handler: () => 'ran',
    };
    let validator = sharedValidator;
    let refusal: string | undefined;
    let tool: AnyTool | undefined;
    try {
      tool = defineTool(spec, validator);
    } catch (error) {
      if (!(error instanceof InvalidOptionError || error instanceof ToolDefinitionError))
        throw error;
      // Two cases of one file may claim one `$id`: give this case resources of its own.
      validator = new SchemaValidator({
        formats,
        schemas: { ...remotes, [key(index)]: group.schema },
      });
      try {
        tool = defineTool(spec, validator);
      } catch (second) {
        refusal = `refused at definition (${errorMessage(second)})`;
      }
    }
    const dispatcher =
      tool === undefined
        ? undefined
        : createDispatcher({ registry: createToolRegistry([tool], { validator }) });
    for (const test of group.tests) {
      const id = `${groupId} › ${test.description}`;
      if (dispatcher === undefined) {
        record(outcome, id, groupId, test.valid, refusal ?? 'refused');
        continue;
      }
      const result = await dispatcher.dispatch({
        id: 'call',
        name,
        arguments: JSON.stringify({ value: test.data }),
      });
      const got = result.ok
        ? 'valid'
        : result.status === 'schema_violation'
          ? 'invalid'
          : result.status;
      record(outcome, id, groupId, test.valid, got);
    }
  }
}

/**
 * Each case's schema as a tool's own schema, the way an MCP server's listing hands it over: its
 * `$ref`s to itself (`#`, its `$id`, a URN) resolve against it, and the suite's data is checked
 * directly (most cases' data are not objects, which a tool's arguments must be).
 */
function runFileDirectly(
  file: SuiteFile,
  draft: SuiteDraft,
  formats: FormatMode,
  outcome: Outcome,
) {
  const validator = new SchemaValidator({ formats, schemas: suiteRemotes(draft) });
  for (const [index, group] of file.groups.entries()) {
    const groupId = `${file.name} › ${group.description}`;
    if (typeof group.schema !== 'object') continue; // a tool's schema is an object
    const schema = { $schema: DIALECT_URI[draft], ...group.schema };
    let refusal: string | undefined;
    try {
      validator.compile(`case_${index}`, schema);
    } catch (error) {
      if (!(error instanceof ToolDefinitionError)) throw error;
      refusal = `refused at definition (${errorMessage(error)})`;
    }
    for (const test of group.tests) {
      const id = `${groupId} › ${test.description} (as the tool's own schema)`;
      if (refusal !== undefined) {
        record(outcome, id, groupId, test.valid, refusal);
        continue;
      }
      const check = validator.check(`case_${index}`, schema, test.data);
      record(outcome, id, groupId, test.valid, check.valid ? 'valid' : 'invalid');
    }
  }
}

type Placement = 'behind a $ref' | 'as the tool schema';

/** The suite's files under `folder`; optional tests only when `folder` is (or holds) them. */
function filesOf(folder: string, exclude?: string): SuiteFile[] {
  const optional = folder.includes('/optional');
  return suiteFiles(folder, { optional }).filter(
    (file) => exclude === undefined || !file.name.includes(exclude),
  );
}

async function runSuite(options: {
  draft: SuiteDraft;
  folder: string;
  formats: FormatMode;
  placement: Placement;
  exclude?: string;
}) {
  const { draft, folder, formats, placement } = options;
  const outcome: Outcome = { passed: 0, skipped: [], mismatches: [], usedSkips: new Set() };
  const files = filesOf(folder, options.exclude);
  for (const file of files) {
    if (placement === 'behind a $ref') await runFile(file, draft, formats, outcome);
    else runFileDirectly(file, draft, formats, outcome);
  }
  const total = outcome.passed + outcome.mismatches.length + outcome.skipped.length;
  console.log(
    `JSON-Schema-Test-Suite ${folder} (format ${formats}, ${placement}): ${outcome.passed}/${total} cases pass, ${outcome.skipped.length} skipped (ajv gets them wrong), ${outcome.mismatches.length} fail`,
  );
  expect(outcome.mismatches).toEqual([]);
  const names = new Set(files.map((file) => file.name));
  const stale = [...AJV_GETS_WRONG.keys()].filter(
    (key) => names.has(key.split(' › ')[0]!) && !outcome.usedSkips.has(key),
  );
  expect(stale).toEqual([]);
  return outcome;
}

describe.each<Placement>(['behind a $ref', 'as the tool schema'])(
  'the official JSON-Schema-Test-Suite, each case %s',
  (placement) => {
    it('draft-07: every case is valid or invalid as the suite says', async () => {
      const outcome = await runSuite({
        draft: 'draft7',
        folder: 'draft7',
        formats: 'annotate',
        placement,
      });
      expect(outcome.passed).toBeGreaterThan(850);
    });

    it('2020-12: every case is valid or invalid as the suite says', async () => {
      const outcome = await runSuite({
        draft: 'draft2020-12',
        folder: 'draft2020-12',
        formats: 'annotate',
        placement,
      });
      expect(outcome.passed).toBeGreaterThan(1200);
    });

    it('2020-12 formats, asserted (the default): every known format fails closed', async () => {
      const outcome = await runSuite({
        draft: 'draft2020-12',
        folder: 'draft2020-12/optional/format',
        formats: 'assert',
        placement,
      });
      expect(outcome.passed).toBeGreaterThan(400);
    });

    it.each<SuiteDraft>(['draft7', 'draft2020-12'])(
      '%s ECMAScript regular expressions (optional): patterns mean what ECMA-262 says',
      async (draft) => {
        const outcome = await runSuite({
          draft,
          folder: `${draft}/optional`,
          formats: 'annotate',
          placement,
          exclude: '/format/',
        });
        expect(outcome.passed).toBeGreaterThan(80);
      },
    );
  },
);
