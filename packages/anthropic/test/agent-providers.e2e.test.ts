// The agent suite of test/support/agent-provider-suite.ts over the Messages API, and the
// tool_result blocks the loop sends, through the real SDK against a loopback wire server.

import { agentLoop } from 'switchyard';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readWriteTools } from '../../../test/agent/support.js';
import { agentProviderSuite } from '../../../test/support/agent-provider-suite.js';
import {
  answerTurn,
  callsTurn,
  type ProviderDriver,
} from '../../../test/support/provider-driver.js';
import { startAnthropicDriver } from './anthropic-driver.js';

agentProviderSuite('Anthropic Messages', startAnthropicDriver);

describe('agentLoop over Anthropic Messages: the tool_result blocks it sends', () => {
  let driver: ProviderDriver;
  beforeEach(async () => {
    driver = await startAnthropicDriver();
  });
  afterEach(() => driver.close());

  it('answers every tool_use block in the next user message, is_error set for the failures', async () => {
    const { registry } = readWriteTools();
    driver.reply(
      callsTurn(
        [
          { id: 'toolu_ok', name: 'read', arguments: ['{"path": "a.md"}'] },
          { id: 'toolu_bad', name: 'write', arguments: ['{"path": nope}'] },
          { id: 'toolu_cut', name: 'write', arguments: ['{"path": "x'] },
        ],
        { finish: 'cut_off' },
      ),
      answerTurn('Sorry.'),
    );
    const run = await agentLoop({ task: 't', model: driver.model(), tools: registry });
    expect(run.status).toBe('completed');
    const messages = driver.lastRequest().body.messages as { role: string; content: unknown }[];
    expect(messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_ok', content: 'text of a.md', is_error: false },
        {
          type: 'tool_result',
          tool_use_id: 'toolu_bad',
          content: expect.stringMatching(/JSON/),
          is_error: true,
        },
        {
          type: 'tool_result',
          tool_use_id: 'toolu_cut',
          content: expect.stringMatching(/cut off.*'max_tokens'/),
          is_error: true,
        },
      ],
    });
  });
});
