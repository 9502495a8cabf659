import type { ModelClient, ToolRegistry } from 'switchyard';
import type { ScriptedTurn } from 'switchyard/testing';

export function seeded(seed: string): () => number;
export function planOf(runId: string): ScriptedTurn[];
export function faultModel(runId: string): ModelClient;
export interface Effect {
  readonly run: string;
  readonly tool: string;
  readonly order: number;
  readonly key: string;
}
export function readEffects(path: string): Effect[];
export function faultTools(effects: string): ToolRegistry;
