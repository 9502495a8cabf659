// docs/json-schema.md: formats checked or only annotated.
import type { AnyTool } from 'switchyard/tools';

declare const tools: readonly AnyTool[];

// #region formats
import { createToolRegistry } from 'switchyard';
import { SchemaValidator } from 'switchyard/tools';

createToolRegistry(tools, { formats: 'annotate' }); // a validator of the registry's own
const validator = new SchemaValidator({ formats: 'annotate' });
createToolRegistry(tools, { validator }); // share it (and with defineTool(spec, validator))
// #endregion formats
