import type { Tool } from 'openai/resources/responses/responses';
import { CancelledError, InvalidOptionError, ModelError } from 'switchyard';
import { describe, expect, it } from 'vitest';
import {
  errorReply,
  RESPONSES_PATH,
  ResponsesScript,
  responsesToolCallStream,
} from '../../../test/support/openai-wire-server.js';
import { thrownBy } from '../../../test/support/thrown-by.js';
import { createOpenAIResponsesModel } from '../src/index.js';
import { responsesModel as model, request } from './model-fixture.js';
import { collect, rejectionOf } from './support.js';
import { server } from './wire-server-fixture.js';

describe('createOpenAIResponsesModel failures', () => {
  it('rejects with a retryable rate_limit ModelError on a 429', async () => {
    server.reply(
      RESPONSES_PATH,
      errorReply(429, 'Rate limit reached', { code: 'rate_limit_exceeded' }),
    );

    const error = await rejectionOf(collect(model().stream(request())));

    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ category: 'rate_limit', status: 429, retryable: true });
  });

  it('rejects with a server_error ModelError on response.failed', async () => {
    server.reply(RESPONSES_PATH, {
      sse: responsesToolCallStream([], {
        end: { status: 'failed', code: 'server_error', message: 'The model failed to respond' },
      }),
    });

    const error = await rejectionOf(collect(model().stream(request())));

    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ category: 'server_error', retryable: true });
    expect((error as Error).message).toBe('openai: server_error: The model failed to respond');
  });

  it('rejects with a ModelError on an error event, classified by its code', async () => {
    const script = new ResponsesScript().event('error', {
      code: 'rate_limit_exceeded',
      message: 'Slow down',
      param: null,
    });
    server.reply(RESPONSES_PATH, { sse: script.steps });

    const error = await rejectionOf(collect(model().stream(request())));

    expect(error).toMatchObject({ code: 'SY_ERR_MODEL', category: 'rate_limit', retryable: true });
  });

  it('rejects with a non-retryable ModelError on an error event with an unknown code', async () => {
    const script = new ResponsesScript().event('error', {
      code: 'invalid_prompt',
      message: 'The prompt was flagged',
      param: null,
    });
    server.reply(RESPONSES_PATH, { sse: script.steps });

    const error = await rejectionOf(collect(model().stream(request())));

    expect(error).toMatchObject({ code: 'SY_ERR_MODEL', category: 'generic', retryable: false });
  });

  it('rejects with a transient_network ModelError when the connection is cut mid-call', async () => {
    const steps = responsesToolCallStream(
      [{ itemId: 'fc_1', id: 'call_a', name: 'read', arguments: ['{"path"'] }],
      { end: { status: 'none' } },
    );
    server.reply(RESPONSES_PATH, { sse: [...steps.slice(0, -1), { cut: true }] });

    const error = await rejectionOf(collect(model().stream(request())));

    expect(error).toMatchObject({ code: 'SY_ERR_MODEL', category: 'transient_network' });
  });

  it('rejects with CancelledError when the signal aborts mid-stream', async () => {
    const steps = responsesToolCallStream(
      [{ itemId: 'fc_1', id: 'call_a', name: 'read', arguments: ['{"path"'] }],
      { end: { status: 'none' } },
    );
    server.reply(RESPONSES_PATH, { sse: [...steps.slice(0, -1), { hold: true }] });
    const controller = new AbortController();

    const error = await rejectionOf(
      (async () => {
        for await (const delta of model().stream(request({ signal: controller.signal }))) {
          if (delta.type === 'call_arguments') controller.abort();
        }
      })(),
    );

    expect(error).toBeInstanceOf(CancelledError);
    await (await server.nextRequest()).abandoned;
  });
});

describe('createOpenAIResponsesModel hostedTools', () => {
  it('refuses hostedTools that are not tool objects', () => {
    expect(() =>
      createOpenAIResponsesModel({
        model: 'm',
        client: server.client(),
        hostedTools: ['web_search'] as unknown as Tool[],
      }),
    ).toThrow(InvalidOptionError);
  });

  it.each([
    [
      {
        type: 'computer_use_preview',
        display_width: 1024,
        display_height: 768,
        environment: 'linux',
      },
    ],
    [{ type: 'local_shell' }],
    [{ type: 'apply_patch' }],
    [{ type: 'shell' }],
    [{ type: 'shell', environment: { type: 'local' } }],
    [{ type: 'mcp', server_label: 'docs', server_url: 'https://example.invalid/mcp' }],
    [{ type: 'function', name: 'read', parameters: {}, strict: false }],
  ])('refuses a hosted tool whose calls the client would have to answer: %j', (tool) => {
    const error = thrownBy(() =>
      createOpenAIResponsesModel({
        model: 'm',
        client: server.client(),
        hostedTools: [{ type: 'web_search' }, tool as Tool],
      }),
    );

    expect(error).toBeInstanceOf(InvalidOptionError);
    expect((error as InvalidOptionError).option).toBe('hostedTools');
    expect((error as Error).message).toContain('hostedTools[1]');
    expect((error as Error).message).toContain(`"${tool.type}"`);
  });

  it('accepts tools OpenAI runs alone', () => {
    expect(() =>
      createOpenAIResponsesModel({
        model: 'm',
        client: server.client(),
        hostedTools: [
          { type: 'web_search' },
          { type: 'shell', environment: { type: 'container_auto' } },
          {
            type: 'mcp',
            server_label: 'docs',
            server_url: 'https://example.invalid/mcp',
            require_approval: 'never',
          },
        ] as Tool[],
      }),
    ).not.toThrow();
  });
});
