import { InvalidOptionError } from '../errors.js';
import type { ModelClient } from '../providers/model-client.js';
import { demoModel } from './demo-model.js';

/** What `switchyard agent` was told about the model, and the environment it runs in. */
export interface ModelChoice {
  readonly task: string;
  readonly provider: string | undefined;
  readonly model: string | undefined;
  readonly baseURL: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
}

const PROVIDERS = ['scripted'] as const;

/**
 * The model `switchyard agent` talks to: the `--provider` asked for, else the first provider
 * whose API key is set, else the built-in scripted demo (offline, no key needed).
 */
export function chooseModel(choice: ModelChoice): ModelClient {
  const provider = choice.provider ?? 'scripted';
  switch (provider) {
    case 'scripted':
      return demoModel(choice.task);
    default:
      throw new InvalidOptionError(
        'provider',
        `--provider must be one of ${PROVIDERS.join(', ')}; got ${JSON.stringify(provider)}`,
      );
  }
}
