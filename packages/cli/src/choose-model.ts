import type { ModelClient } from 'switchyard';
import { InvalidOptionError } from 'switchyard';
import { DEFAULT_MAX_CONCURRENT_TOOLS } from 'switchyard/streams';
import type { OptionSpec } from './command-line.js';
import { demoModel } from './demo-model.js';
import { UsageError } from './errors.js';

/** What the command line said about the model, and the environment it runs in. */
export interface ModelChoice {
  /** The task, for the scripted demo model. */
  readonly task: string;
  readonly provider: string | undefined;
  readonly model: string | undefined;
  readonly baseURL: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Passed to the provider's SDK client; `batch` sets 0 so its own limiter retries. Default: the SDK's. */
  readonly maxRetries?: number;
}

/** Each provider's key variable, and the model used when neither `--model` nor `SWITCHYARD_MODEL` says. */
const PROVIDERS: Readonly<Record<string, { key?: string; model: string }>> = {
  openai: { key: 'OPENAI_API_KEY', model: 'gpt-5.1' },
  'openai-responses': { key: 'OPENAI_API_KEY', model: 'gpt-5.1' },
  anthropic: { key: 'ANTHROPIC_API_KEY', model: 'claude-sonnet-5-5' },
  scripted: { model: 'switchyard-demo' },
};

/** The provider to use: the one asked for, else the first whose key is set, else `scripted`. */
export function providerOf(choice: Pick<ModelChoice, 'provider' | 'env'>): string {
  if (choice.provider !== undefined) return choice.provider;
  if (choice.env.OPENAI_API_KEY) return 'openai';
  if (choice.env.ANTHROPIC_API_KEY) return 'anthropic';
  return 'scripted';
}

/**
 * Refuses `--tools` with the built-in scripted model unless every task scripts its calls
 * (`call <tool> <JSON>` lines): otherwise it calls only the built-in tools (`regex_match`,
 * `sha256`, `math_calc`), so against the user's tools every call would be refused while the run
 * reports itself completed.
 *
 * @param tasksScriptCalls whether every task names its calls; asked only when the rest would
 *   refuse (default: they do not).
 * @throws UsageError when `provider` is `scripted`, `tools` is given and the tasks do not script
 *   their calls.
 */
export function refuseDemoModelWithTools(
  provider: string,
  tools: string | undefined,
  tasksScriptCalls: () => boolean = () => false,
): void {
  if (provider !== 'scripted' || tools === undefined || tasksScriptCalls()) return;
  throw new UsageError(
    `--tools ${tools} needs a model that can call your tools, and none is set: the built-in scripted model calls only the built-in tools. Set OPENAI_API_KEY or ANTHROPIC_API_KEY, or pass --provider (or, for batch, --model-module), or script each task's calls with "call <tool> <JSON arguments>" lines`,
  );
}

/**
 * The model `switchyard agent` and `batch` talk to: `--provider` (`openai`, `openai-responses`,
 * `anthropic`, `scripted`), else the first provider whose API key is set in the environment,
 * else the built-in scripted demo (offline, no key needed). `--model` (or `SWITCHYARD_MODEL`) and
 * `--base-url` (or the SDK's own `*_BASE_URL` variable) point it elsewhere. A provider's adapter
 * (and so its SDK) is imported only when it is chosen.
 *
 * @throws InvalidOptionError for an unknown provider, or a provider whose key is not set.
 */
export async function chooseModel(choice: ModelChoice): Promise<ModelClient> {
  const provider = providerOf(choice);
  const known = Object.hasOwn(PROVIDERS, provider) ? PROVIDERS[provider] : undefined;
  if (known === undefined) {
    throw new InvalidOptionError(
      'provider',
      `--provider must be one of ${Object.keys(PROVIDERS).join(', ')}; got ${JSON.stringify(provider)}`,
    );
  }
  const apiKey = known.key === undefined ? undefined : choice.env[known.key];
  if (known.key !== undefined && !apiKey) {
    throw new InvalidOptionError('provider', `--provider ${provider} needs ${known.key} to be set`);
  }
  const endpoint = {
    model: choice.model ?? choice.env.SWITCHYARD_MODEL ?? known.model,
    apiKey,
    ...(choice.baseURL === undefined ? {} : { baseURL: choice.baseURL }),
    ...(choice.maxRetries === undefined ? {} : { maxRetries: choice.maxRetries }),
  };
  switch (provider) {
    case 'openai':
      return (await import('@switchyard/openai')).createOpenAIChatModel(endpoint);
    case 'openai-responses':
      return (await import('@switchyard/openai')).createOpenAIResponsesModel(endpoint);
    case 'anthropic':
      return (await import('@switchyard/anthropic')).createAnthropicModel(endpoint);
    default:
      return demoModel(choice.task);
  }
}

/** The model options `agent` and `batch` share. */
export const MODEL_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  provider: {
    type: 'string',
    value: '<name>',
    description:
      'openai | openai-responses | anthropic | scripted (default: openai when OPENAI_API_KEY is set, anthropic when ANTHROPIC_API_KEY is set, scripted otherwise)',
  },
  model: {
    type: 'string',
    value: '<id>',
    description: "the provider's model id (also SWITCHYARD_MODEL)",
  },
  'base-url': {
    type: 'string',
    value: '<url>',
    description:
      'an OpenAI-compatible (or Anthropic) endpoint (also OPENAI_BASE_URL / ANTHROPIC_BASE_URL)',
  },
  'max-iterations': {
    type: 'string',
    value: '<n>',
    description: 'model turns at most (default 10)',
  },
  concurrency: {
    type: 'string',
    value: '<n>',
    description: `tool calls in flight per turn (default ${DEFAULT_MAX_CONCURRENT_TOOLS})`,
  },
  'no-eager': {
    type: 'boolean',
    description: 'start no call before the model has finished its turn',
  },
};
