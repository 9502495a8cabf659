import { randomUUID } from 'node:crypto';
import { InvalidOptionError } from '../../errors.js';
import type { DetectorListener } from '../detector-events.js';

/** Options both detectors share. */
export interface DetectorCommonOptions {
  /** The tool names advertised to the model for this response. */
  readonly toolNames: Iterable<string>;
  /**
   * Maps a name the model used to the canonical tool name, or undefined when there is no such
   * tool. Use it to accept provider-safe aliases: `(name) => registry.resolve(name)?.name`.
   * Advertised names always resolve to themselves. Default: advertised names only.
   */
  readonly resolveName?: (name: string) => string | undefined;
  /** Receives every event, synchronously and in order. */
  readonly onEvent: DetectorListener;
  /**
   * Id for a call the provider gave none (and for every text-mode call), so candidate events and
   * the later dispatch share one id. Default: `call_<uuid>`, like the dispatcher.
   */
  readonly generateCallId?: () => string;
}

/** The validated common options. */
export interface DetectorContext {
  /** Canonical name for a name the model used, or undefined. */
  readonly resolve: (name: string) => string | undefined;
  readonly emit: DetectorListener;
  readonly generateCallId: () => string;
}

/** Validates the shared options; throws `InvalidOptionError` naming the option. */
export function detectorContext(options: DetectorCommonOptions, factory: string): DetectorContext {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidOptionError('options', `${factory}: options must be an object`);
  }
  const { toolNames, resolveName, onEvent, generateCallId } = options;
  if (toolNames === undefined || typeof toolNames === 'string' || !isIterable(toolNames)) {
    throw new InvalidOptionError(
      'toolNames',
      `${factory}: toolNames must be an iterable of tool names (e.g. registry.names())`,
    );
  }
  const names = [...toolNames];
  for (const name of names) {
    if (typeof name !== 'string' || name === '') {
      throw new InvalidOptionError(
        'toolNames',
        `${factory}: every tool name must be a non-empty string`,
      );
    }
  }
  if (typeof onEvent !== 'function') {
    throw new InvalidOptionError(
      'onEvent',
      `${factory}: onEvent must be a function (event) => void`,
    );
  }
  if (resolveName !== undefined && typeof resolveName !== 'function') {
    throw new InvalidOptionError(
      'resolveName',
      `${factory}: resolveName must be a function (name) => canonical name | undefined`,
    );
  }
  if (generateCallId !== undefined && typeof generateCallId !== 'function') {
    throw new InvalidOptionError(
      'generateCallId',
      `${factory}: generateCallId must be a function () => string`,
    );
  }
  const advertised = new Set(names);
  return {
    emit: onEvent,
    generateCallId: generateCallId ?? (() => `call_${randomUUID()}`),
    resolve: (name) => {
      if (advertised.has(name)) return name;
      const canonical = resolveName?.(name);
      return typeof canonical === 'string' && canonical !== '' ? canonical : undefined;
    },
  };
}

function isIterable(value: unknown): value is Iterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function'
  );
}
