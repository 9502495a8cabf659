import type { Tool } from 'switchyard';

export const addTool: Tool<{ a: number; b: number }, number>;
export const waitTool: Tool<{ ms: number }, { waitedMs: number }>;
