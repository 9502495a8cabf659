import { Anthropic } from '@anthropic-ai/sdk';
import type { ModelClient } from 'switchyard';
import { CancelledError, ModelError } from 'switchyard';
import type { ModelRequest } from 'switchyard/providers';
import { deferred } from 'switchyard/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type AnthropicWireServer,
  errorFrame,
  errorReply,
  messageStart,
  messageStream,
  startAnthropicWireServer,
} from '../../../test/support/anthropic-wire-server.js';
import { createAnthropicModel, toAnthropicModelError } from '../src/index.js';
import { eventsOf, providerRegistry, runTurn } from './support.js';

let server: AnthropicWireServer;
let model: ModelClient;
const registry = providerRegistry();
const request: ModelRequest = {
  messages: [{ role: 'user', text: 'Go.' }],
  tools: registry.modelDefinitions(),
};

beforeEach(async () => {
  server = await startAnthropicWireServer();
  model = createAnthropicModel({ model: 'claude-wire', client: server.client() });
});
afterEach(async () => {
  await server.close();
});

/** The frames of a turn that opened a read call and sent part of its arguments. */
const openCall = () =>
  messageStream([{ toolUse: { id: 'toolu_1', name: 'read', jsonPieces: ['{"path": "a'] } }], {
    stopReason: null,
    lastBlockOpen: true,
  });

describe('createAnthropicModel: provider failures are ModelErrors', () => {
  it.each([
    [429, 'rate_limit_error', 'rate_limit', true],
    [529, 'overloaded_error', 'overloaded', true],
    [401, 'authentication_error', 'auth', false],
    [500, 'api_error', 'server_error', true],
  ] as const)('answers HTTP %i %s with category %s', async (status, type, category, retryable) => {
    server.reply(errorReply(status, type, 'refused'));
    const { deltas, error } = await runTurn(model, request, registry);
    expect(deltas).toEqual([]);
    expect(ModelError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'SY_ERR_MODEL',
      provider: 'anthropic',
      category,
      status,
      retryable,
    });
    expect((error as ModelError).cause).toBeInstanceOf(Anthropic.APIError);
  });

  it('turns an event: error overloaded_error mid-stream into an overloaded ModelError and never runs the open call', async () => {
    server.reply({ stream: [...openCall(), errorFrame('overloaded_error', 'Overloaded')] });
    const { deltas, events, error } = await runTurn(model, request, registry);
    expect(deltas.map((delta) => delta.type)).toEqual(['call_start', 'call_arguments']);
    expect(ModelError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      provider: 'anthropic',
      category: 'overloaded',
      status: undefined,
      retryable: true,
    });
    expect(eventsOf(events, 'candidate_retracted').map((event) => event.reason)).toEqual([
      'incomplete',
    ]);
  });

  it('classifies an event: error by its type, not by numbers in its message', async () => {
    server.reply({ stream: [messageStart(), errorFrame('api_error', 'upstream said 429 twice')] });
    const { error } = await runTurn(model, request, registry);
    expect(error).toMatchObject({ category: 'server_error', retryable: true });
  });

  it('turns a response that does not start within timeoutMs into a retryable timeout ModelError', async () => {
    server.reply({ hold: true });
    const impatient = createAnthropicModel({
      model: 'claude-wire',
      apiKey: 'test-key',
      baseURL: server.baseURL,
      maxRetries: 0,
      timeoutMs: 50,
    });
    const { error } = await runTurn(impatient, request, registry);
    expect(ModelError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ category: 'timeout', retryable: true });
  });

  it('turns a refused connection into a retryable transient_network ModelError', async () => {
    const gone = await startAnthropicWireServer();
    await gone.close();
    const offline = createAnthropicModel({ model: 'claude-wire', client: gone.client() });
    const { error } = await runTurn(offline, request, registry);
    expect(ModelError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ category: 'transient_network', retryable: true });
  });
});

describe('createAnthropicModel: cancellation', () => {
  it('rejects with CancelledError when the signal aborts mid-stream, where the SDK would just stop', async () => {
    server.reply({ stream: openCall(), ending: 'hold' });
    const controller = new AbortController();
    const { deltas, events, error } = await runTurn(
      model,
      { ...request, signal: controller.signal },
      registry,
      (delta) => {
        if (delta.type === 'call_arguments') controller.abort();
      },
    );
    expect(CancelledError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'SY_ERR_CANCELLED' });
    expect(deltas.map((delta) => delta.type)).toEqual(['call_start', 'call_arguments']);
    expect(eventsOf(events, 'candidate_retracted').map((event) => event.reason)).toEqual([
      'incomplete',
    ]);
    await (await server.nextRequest()).abandoned;
  });

  it('rejects with the abort reason when it is a CancelledError, before the response started', async () => {
    server.reply({ hold: true });
    const controller = new AbortController();
    const reason = new CancelledError('the user pressed stop');
    const outcome = runTurn(model, { ...request, signal: controller.signal }, registry);
    const held = await server.nextRequest();
    controller.abort(reason);
    const { error } = await outcome;
    expect(error).toBe(reason);
    await held.abandoned;
  });

  it('sends nothing when the signal has already aborted', async () => {
    const { error } = await runTurn(model, { ...request, signal: AbortSignal.abort() }, registry);
    expect(CancelledError.isInstance(error)).toBe(true);
    expect(server.requests).toEqual([]);
  });

  it('stops the request when the consumer stops reading', async () => {
    const release = deferred<void>();
    server.reply({ stream: [...openCall(), { waitFor: release.promise }], ending: 'hold' });
    for await (const delta of model.stream(request)) {
      if (delta.type === 'call_arguments') break;
    }
    await (await server.nextRequest()).abandoned;
    release.resolve();
  });
});

describe('toAnthropicModelError', () => {
  it('reads the SDK finding no credentials as auth', () => {
    const error = toAnthropicModelError(
      new Error('Could not resolve authentication method. Expected one of apiKey, authToken, …'),
    );
    expect(error).toMatchObject({ code: 'SY_ERR_MODEL', category: 'auth', retryable: false });
  });

  it('leaves a ModelError or CancelledError as it is, and any error under an aborted signal is a cancellation', () => {
    const known = new ModelError('anthropic: x', {
      provider: 'anthropic',
      category: 'timeout',
      retryable: true,
    });
    expect(toAnthropicModelError(known)).toBe(known);
    const aborted = toAnthropicModelError(new TypeError('terminated'), AbortSignal.abort());
    expect(CancelledError.isInstance(aborted)).toBe(true);
  });
});
