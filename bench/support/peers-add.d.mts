import type { Tool } from 'switchyard';

export const ADD_SCHEMA: {
  readonly type: 'object';
  readonly properties: { readonly a: { type: 'number' }; readonly b: { type: 'number' } };
  readonly required: string[];
  readonly additionalProperties: false;
};
export const peersAdd: Tool<{ a: number; b: number }, number>;
