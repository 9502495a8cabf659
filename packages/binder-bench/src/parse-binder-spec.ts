import { InvalidOptionError } from 'switchyard';
import type { BinderSpec } from './binder-spec.js';
import type { LatencyDistribution } from './latency-distribution.js';

const USAGE =
  'expected lexical | simulated:LABEL,median=MS,p95=MS | simulated:LABEL,ms=MS | ' +
  'simulated:LABEL,min=MS,max=MS | openai:MODEL[,base=URL][,key=ENV_VAR][,label=NAME][,strict=true] | ' +
  'anthropic:MODEL[,base=URL][,key=ENV_VAR][,label=NAME][,mode=tool]';

function fail(text: string, why: string): never {
  throw new InvalidOptionError(
    'binder',
    `bench binder: --binder ${JSON.stringify(text)}: ${why}; ${USAGE}`,
  );
}

function milliseconds(text: string, settings: Map<string, string>, key: string): number {
  const value = Number(settings.get(key));
  if (!settings.has(key) || !Number.isFinite(value) || value < 0)
    fail(text, `${key} must be a number of ms`);
  return value;
}

function latencyOf(text: string, settings: Map<string, string>): LatencyDistribution {
  if (settings.has('ms')) return { kind: 'fixed', ms: milliseconds(text, settings, 'ms') };
  if (settings.has('min') || settings.has('max')) {
    return {
      kind: 'uniform',
      minMs: milliseconds(text, settings, 'min'),
      maxMs: milliseconds(text, settings, 'max'),
    };
  }
  return {
    kind: 'lognormal',
    medianMs: milliseconds(text, settings, 'median'),
    p95Ms: milliseconds(text, settings, 'p95'),
  };
}

/**
 * Reads a `--binder` value: `KIND[:NAME][,key=value]…` — the name is the simulated binder's label
 * or the model (which may hold `:`), the settings follow after commas. Throws `InvalidOptionError`
 * (option `binder`) with the accepted forms when the text is not one of them.
 *
 * @example
 * parseBinderSpec('openai:llama-3.3-70b,base=https://api.example.com/v1,key=EXAMPLE_API_KEY');
 */
export function parseBinderSpec(text: string): BinderSpec {
  const colon = text.indexOf(':');
  const kind = colon === -1 ? text : text.slice(0, colon);
  const [name = '', ...pairs] = colon === -1 ? [''] : text.slice(colon + 1).split(',');
  const settings = new Map<string, string>();
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    if (equals < 1) fail(text, `setting ${JSON.stringify(pair)} is not key=value`);
    settings.set(pair.slice(0, equals), pair.slice(equals + 1));
  }
  const label = settings.get('label');
  const common = {
    ...(label === undefined ? {} : { label }),
    ...(settings.has('base') ? { baseURL: settings.get('base')! } : {}),
    ...(settings.has('key') ? { apiKeyEnv: settings.get('key')! } : {}),
  };
  switch (kind) {
    case 'lexical':
      return label === undefined ? { type: 'lexical' } : { type: 'lexical', label };
    case 'simulated':
      if (name === '') fail(text, 'a simulated binder needs a label');
      return { type: 'simulated', label: name, latency: latencyOf(text, settings) };
    case 'openai':
      if (name === '') fail(text, 'the model is missing');
      return { type: 'openai', model: name, ...common, strict: settings.get('strict') === 'true' };
    case 'anthropic':
      if (name === '') fail(text, 'the model is missing');
      return {
        type: 'anthropic',
        model: name,
        ...common,
        ...(settings.get('mode') === 'tool' ? { mode: 'tool' as const } : {}),
      };
    default:
      return fail(text, `unknown kind ${JSON.stringify(kind)}`);
  }
}
