import type { Anthropic } from '@anthropic-ai/sdk';
import type { OpenAI } from 'openai';
import type { BinderFn } from 'switchyard/middleware';
import type { LatencyDistribution } from './latency-distribution.js';

/** A binder to measure. Every kind takes an optional `label` (its name in tables and plots). */
export type BinderSpec =
  /** The built-in model-free binder (`createLexicalBinder`). */
  | { readonly type: 'lexical'; readonly label?: string }
  /**
   * A simulated binder: answers the expected arguments after a latency drawn from `latency`
   * (deterministic per case). Labelled "(simulated)" everywhere.
   */
  | { readonly type: 'simulated'; readonly label: string; readonly latency: LatencyDistribution }
  /**
   * Any OpenAI-compatible Chat Completions endpoint. `baseURL` defaults to `OPENAI_BASE_URL`, the
   * key to `apiKey`, else the variable `apiKeyEnv` (default `OPENAI_API_KEY`). `strict` (default
   * false) asks for strict structured output, which only takes all-required schemas.
   */
  | {
      readonly type: 'openai';
      readonly model: string;
      readonly label?: string;
      readonly baseURL?: string;
      readonly apiKey?: string;
      readonly apiKeyEnv?: string;
      readonly strict?: boolean;
      /** A client of your own instead of baseURL/key. */
      readonly client?: OpenAI;
    }
  /**
   * An Anthropic model. `baseURL` defaults to `ANTHROPIC_BASE_URL`, the key to `apiKey`, else the
   * variable `apiKeyEnv` (default `ANTHROPIC_API_KEY`). `mode`: see `createAnthropicBinder`.
   */
  | {
      readonly type: 'anthropic';
      readonly model: string;
      readonly label?: string;
      readonly baseURL?: string;
      readonly apiKey?: string;
      readonly apiKeyEnv?: string;
      readonly mode?: 'json_schema' | 'tool';
      readonly client?: Anthropic;
    }
  /** A binder function of your own. */
  | {
      readonly type: 'custom';
      readonly label: string;
      readonly binderFn: BinderFn;
      readonly provider?: string;
      readonly model?: string;
      /** Mark it simulated when it is not a real model. Default false. */
      readonly simulated?: boolean;
    };

/** The binders measured when none are named: the lexical baseline and two simulated binders. */
export const DEFAULT_BINDERS: readonly BinderSpec[] = [
  { type: 'lexical' },
  { type: 'simulated', label: 'fast', latency: { kind: 'lognormal', medianMs: 180, p95Ms: 450 } },
  { type: 'simulated', label: 'slow', latency: { kind: 'lognormal', medianMs: 700, p95Ms: 2400 } },
];
