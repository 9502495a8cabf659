// packages/anthropic/README.md: one streamed Claude turn, its calls dispatched, the transcript
// carried on; and hosted tools.
import type { AnyTool } from 'switchyard/tools';

declare const readFile: AnyTool;

// #region turn
import { Anthropic } from '@anthropic-ai/sdk';
import { createAnthropicModel } from '@switchyard/anthropic';
import {
  createDispatcher,
  createToolRegistry,
  dispatchTurn,
  type TranscriptMessage,
} from 'switchyard';
import { createNativeDetector, type DetectedCall } from 'switchyard/detectors';

const registry = createToolRegistry([readFile]); // say, `fs.read` from an MCP server
const dispatcher = createDispatcher({ registry });
const model = createAnthropicModel({ model: 'claude-sonnet-5-5', client: new Anthropic() });

const transcript: TranscriptMessage[] = [{ role: 'user', text: 'What is in notes.md?' }];
const calls: DetectedCall[] = [];
let text = '';
const detector = createNativeDetector({
  toolNames: registry.names(),
  resolveName: (name) => registry.resolve(name)?.name, // the model calls `fs_read`
  onEvent: (event) => {
    if (event.type === 'candidate_promoted') calls.push(event.call);
    if (event.type === 'text') text += event.text;
  },
});
for await (const delta of model.stream({
  messages: transcript,
  tools: registry.modelDefinitions(),
})) {
  detector.push(delta);
}
detector.end();

const results = await dispatchTurn(calls, { dispatcher });
transcript.push(
  {
    role: 'assistant',
    text,
    toolCalls: calls.map((call) => ({
      id: call.id,
      name: registry.aliasOf(call.name) ?? call.name, // replay the name the model used
      argumentsText: JSON.stringify(call.arguments),
    })),
  },
  {
    role: 'tool',
    results: results.map((result) => ({
      toolCallId: result.toolCallId,
      toolName: result.toolName,
      content: result.observation,
      isError: !result.ok,
    })),
  },
);
// The next turn: model.stream({ messages: transcript, tools: registry.modelDefinitions() })
// #endregion turn

// #region hosted-tools
const searching = createAnthropicModel({
  model: 'claude-sonnet-5-5',
  hostedTools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }],
});

// #endregion hosted-tools

export { searching };
