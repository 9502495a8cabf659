import { Anthropic } from '@anthropic-ai/sdk';
import { createAnthropicBinder } from '@switchyard/anthropic';
import { createOpenAIBinder } from '@switchyard/openai';
import { OpenAI } from 'openai';
import { InvalidOptionError } from 'switchyard';
import type { BinderFn } from 'switchyard/middleware';
import type { BenchClock } from './bench-clock.js';
import type { BinderSpec } from './binder-spec.js';
import {
  checkLatencyDistribution,
  describeLatency,
  drawLatency,
  type LatencyDistribution,
} from './latency-distribution.js';
import { createLexicalBinder } from './lexical-binder.js';
import { type SimulatedAnswers, simulatedBinderFn } from './simulated-binder.js';
import { startSimulatedBinderServer } from './simulated-binder-server.js';

/** A binder ready to measure, as results describe it. */
export interface BinderInfo {
  /** The name in tables, plots and JSON; simulated binders end in " (simulated)". */
  readonly label: string;
  readonly type: BinderSpec['type'];
  readonly provider: string;
  readonly model: string;
  readonly simulated: boolean;
  /** A simulated binder's latency distribution in words. */
  readonly latency?: string;
}

export interface OpenedBinder extends BinderInfo {
  readonly binderFn: BinderFn;
  close(): Promise<void>;
}

export interface OpenContext {
  readonly answers: SimulatedAnswers;
  readonly seed: string;
  readonly clock: BenchClock;
  readonly env: Readonly<Record<string, string | undefined>>;
}

const nothing = async () => {};

function keyOf(
  spec: { apiKey?: string; apiKeyEnv?: string; baseURL?: string },
  fallbackEnv: string,
  env: OpenContext['env'],
): string {
  const name = spec.apiKeyEnv ?? fallbackEnv;
  const key = spec.apiKey ?? env[name];
  if (key !== undefined && key !== '') return key;
  // A local OpenAI-compatible server (vLLM, llama.cpp) often takes no key.
  if (spec.baseURL !== undefined) return 'none';
  throw new InvalidOptionError(
    'binders',
    `bench binder: set ${name} (the API key) or give a base URL`,
  );
}

async function openSimulated(
  label: string,
  latency: LatencyDistribution,
  context: OpenContext,
): Promise<OpenedBinder> {
  checkLatencyDistribution(latency, label);
  const latencyOf = (caseId: string) => drawLatency(latency, `${context.seed}:${label}:${caseId}`);
  const info = {
    label: `${label} (simulated)`,
    type: 'simulated' as const,
    provider: 'simulated',
    model: label,
    simulated: true,
    latency: describeLatency(latency),
  };
  if (context.clock.virtual) {
    return {
      ...info,
      binderFn: simulatedBinderFn({ answers: context.answers, latencyOf, clock: context.clock }),
      close: nothing,
    };
  }
  const server = await startSimulatedBinderServer({ answers: context.answers, latencyOf });
  const client = new OpenAI({ apiKey: 'simulated', baseURL: server.baseURL, maxRetries: 0 });
  return {
    ...info,
    binderFn: createOpenAIBinder({ client, model: label, strict: false }),
    close: () => server.close(),
  };
}

/**
 * Makes a binder spec callable: builds its SDK client or starts its simulated endpoint. Throws
 * `InvalidOptionError` (option `binders`) when a key is missing.
 */
export async function openBinder(spec: BinderSpec, context: OpenContext): Promise<OpenedBinder> {
  switch (spec.type) {
    case 'lexical':
      return {
        label: spec.label ?? 'lexical',
        type: 'lexical',
        provider: 'switchyard',
        model: 'lexical',
        simulated: false,
        binderFn: createLexicalBinder(),
        close: nothing,
      };
    case 'simulated':
      return openSimulated(spec.label, spec.latency, context);
    case 'openai': {
      const baseURL = spec.baseURL ?? context.env.OPENAI_BASE_URL;
      const client =
        spec.client ??
        new OpenAI({
          apiKey: keyOf(
            { ...spec, ...(baseURL === undefined ? {} : { baseURL }) },
            'OPENAI_API_KEY',
            context.env,
          ),
          ...(baseURL === undefined ? {} : { baseURL }),
          maxRetries: 0,
        });
      const binderFn = createOpenAIBinder({
        client,
        model: spec.model,
        strict: spec.strict ?? false,
      });
      return {
        label: spec.label ?? `openai:${spec.model}`,
        type: 'openai',
        provider: 'openai',
        model: spec.model,
        simulated: false,
        binderFn,
        close: nothing,
      };
    }
    case 'anthropic': {
      const baseURL = spec.baseURL ?? context.env.ANTHROPIC_BASE_URL;
      const client =
        spec.client ??
        new Anthropic({
          apiKey: keyOf(spec, 'ANTHROPIC_API_KEY', context.env),
          ...(baseURL === undefined ? {} : { baseURL }),
          maxRetries: 0,
        });
      const binderFn = createAnthropicBinder({
        client,
        model: spec.model,
        ...(spec.mode === undefined ? {} : { mode: spec.mode }),
      });
      return {
        label: spec.label ?? `anthropic:${spec.model}`,
        type: 'anthropic',
        provider: 'anthropic',
        model: spec.model,
        simulated: false,
        binderFn,
        close: nothing,
      };
    }
    case 'custom': {
      const simulated = spec.simulated ?? false;
      return {
        label: simulated ? `${spec.label} (simulated)` : spec.label,
        type: 'custom',
        provider: spec.provider ?? 'custom',
        model: spec.model ?? spec.label,
        simulated,
        binderFn: spec.binderFn,
        close: nothing,
      };
    }
    default: {
      const never: never = spec;
      throw new InvalidOptionError(
        'binders',
        `bench binder: unknown binder type ${JSON.stringify((never as { type: unknown }).type)}`,
      );
    }
  }
}
