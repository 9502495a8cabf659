import { InvalidOptionError } from '../errors.js';
import { createAnthropicModel } from '../providers/anthropic/anthropic-model.js';
import type { ModelClient } from '../providers/model-client.js';
import { createOpenAIChatModel } from '../providers/openai/create-openai-chat-model.js';
import { createOpenAIResponsesModel } from '../providers/openai/create-openai-responses-model.js';
import { demoModel } from './demo-model.js';

/** What `switchyard agent` was told about the model, and the environment it runs in. */
export interface ModelChoice {
  readonly task: string;
  readonly provider: string | undefined;
  readonly model: string | undefined;
  readonly baseURL: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** Each provider's key variable, and the model used when neither `--model` nor `SWITCHYARD_MODEL` says. */
const PROVIDERS: Readonly<Record<string, { key?: string; model: string }>> = {
  openai: { key: 'OPENAI_API_KEY', model: 'gpt-5.1' },
  'openai-responses': { key: 'OPENAI_API_KEY', model: 'gpt-5.1' },
  anthropic: { key: 'ANTHROPIC_API_KEY', model: 'claude-sonnet-5-5' },
  scripted: { model: 'switchyard-demo' },
};

/** The provider to use: the one asked for, else the first whose key is set, else `scripted`. */
function providerOf(choice: ModelChoice): string {
  if (choice.provider !== undefined) return choice.provider;
  if (choice.env.OPENAI_API_KEY) return 'openai';
  if (choice.env.ANTHROPIC_API_KEY) return 'anthropic';
  return 'scripted';
}

/**
 * The model `switchyard agent` talks to: `--provider` (`openai`, `openai-responses`, `anthropic`,
 * `scripted`),
 * else the first provider whose API key is set in the environment, else the built-in scripted
 * demo (offline, no key needed). `--model` (or `SWITCHYARD_MODEL`) and `--base-url` (or the
 * SDK's own `*_BASE_URL` variable) point it elsewhere.
 *
 * @throws InvalidOptionError for an unknown provider, or a provider whose key is not set.
 */
export function chooseModel(choice: ModelChoice): ModelClient {
  const provider = providerOf(choice);
  const known = PROVIDERS[provider];
  if (known === undefined || !Object.hasOwn(PROVIDERS, provider)) {
    throw new InvalidOptionError(
      'provider',
      `--provider must be one of ${Object.keys(PROVIDERS).join(', ')}; got ${JSON.stringify(provider)}`,
    );
  }
  const apiKey = known.key === undefined ? undefined : choice.env[known.key];
  if (known.key !== undefined && !apiKey) {
    throw new InvalidOptionError('provider', `--provider ${provider} needs ${known.key} to be set`);
  }
  const model = choice.model ?? choice.env.SWITCHYARD_MODEL ?? known.model;
  const endpoint = {
    model,
    apiKey,
    ...(choice.baseURL === undefined ? {} : { baseURL: choice.baseURL }),
  };
  switch (provider) {
    case 'openai':
      return createOpenAIChatModel(endpoint);
    case 'openai-responses':
      return createOpenAIResponsesModel(endpoint);
    case 'anthropic':
      return createAnthropicModel(endpoint);
    default:
      return demoModel(choice.task);
  }
}
