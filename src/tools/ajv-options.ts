import type { Options as AjvOptions } from 'ajv';

/** The options every instance starts from (and the precompiled meta-schema check was made with). */
export const BASE_OPTIONS: AjvOptions = {
  allErrors: true,
  // Errors carry their schema and data: the repair message names expected types and values.
  verbose: true,
  // Strict mode refuses schemas the drafts allow (`if` alone, `$anchor` beside `$ref`, a property
  // that also matches a pattern); typos are caught by `findSuspectKeyword` instead.
  strict: false,
  allowUnionTypes: true,
  // Two tools may reuse one `$id`; compiled schemas must not be registered globally by it.
  addUsedSchema: false,
  logger: false,
};
