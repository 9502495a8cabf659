/** Parameters of an Agents function tool that takes no arguments, in the SDK's non-strict form. */
export const NO_PARAMETERS = {
  type: 'object' as const,
  properties: {},
  required: [],
  additionalProperties: true as const,
};
