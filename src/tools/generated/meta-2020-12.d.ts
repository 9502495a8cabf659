// The precompiled validator of the JSON Schema 2020-12 meta-schema (see meta-2020-12.js).
import type { ErrorObject } from 'ajv';

export interface MetaValidator {
  (schema: unknown): boolean;
  errors?: ErrorObject[] | null;
}

export const validate: MetaValidator;
export default validate;
