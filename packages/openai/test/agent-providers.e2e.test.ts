// The agent suite of test/support/agent-provider-suite.ts over both OpenAI APIs, and what the loop
// sends the Responses API, through the real SDK against a loopback wire server.

import { agentLoop } from 'switchyard';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readWriteTools } from '../../../test/agent/support.js';
import { agentProviderSuite } from '../../../test/support/agent-provider-suite.js';
import {
  answerTurn,
  callsTurn,
  type ProviderDriver,
} from '../../../test/support/provider-driver.js';
import { startOpenAIChatDriver, startOpenAIResponsesDriver } from './openai-drivers.js';

agentProviderSuite('OpenAI Chat Completions', startOpenAIChatDriver);
agentProviderSuite('OpenAI Responses', startOpenAIResponsesDriver);

describe('agentLoop over OpenAI Responses: the input items it sends', () => {
  let driver: ProviderDriver;
  beforeEach(async () => {
    driver = await startOpenAIResponsesDriver();
  });
  afterEach(() => driver.close());

  it('replays each call as a function_call item followed by its function_call_output', async () => {
    const { registry } = readWriteTools();
    driver.reply(
      callsTurn([{ id: 'call_r1', name: 'read', arguments: ['{"path":', '"z.md"}'] }]),
      answerTurn('It says hello.'),
    );
    const run = await agentLoop({ task: 'read z', model: driver.model(), tools: registry });
    expect(run.status).toBe('completed');
    expect(run.text).toBe('It says hello.');
    const input = driver.lastRequest().body.input as { type: string }[];
    expect(input.filter((item) => item.type !== 'message')).toEqual([
      {
        type: 'function_call',
        call_id: 'call_r1',
        name: 'read',
        arguments: '{"path":"z.md"}',
      },
      { type: 'function_call_output', call_id: 'call_r1', output: 'text of z.md' },
    ]);
  });
});
