import type {
  AgentOutputItem,
  Model,
  ModelRequest,
  ModelResponse,
  ModelRetryAdvice,
  ModelRetryAdviceRequest,
  StreamEvent,
} from '@openai/agents-core';
import { listedNames, passUnlistedCalls, restoreUnlistedCalls } from './unlisted-call.js';

/** What the model wrapper tells the tools: the calls of one step, in the model's order. */
export type StepListener = (output: readonly AgentOutputItem[]) => void;

/**
 * A model in front of the Runner's own call handling: it carries the calls of each response that
 * the Runner would answer itself (unknown names, unparseable arguments) under a Switchyard tool's
 * name, so they reach Switchyard, and restores the model's own calls in every request. Each
 * response's calls are announced to `onStep`.
 */
export class PassingModel implements Model {
  readonly #inner: Model;
  readonly #ours: ReadonlySet<string>;
  readonly #onStep: StepListener;
  readonly supportsPromptModelSelection?: boolean;

  constructor(inner: Model, ours: ReadonlySet<string>, onStep: StepListener) {
    this.#inner = inner;
    this.#ours = ours;
    this.#onStep = onStep;
    this.supportsPromptModelSelection = inner.supportsPromptModelSelection;
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const forwarded = this.#forward(request);
    const response = await this.#inner.getResponse(forwarded);
    return { ...response, output: this.#pass(response.output, forwarded) };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const forwarded = this.#forward(request);
    for await (const event of this.#inner.getStreamedResponse(forwarded)) {
      // The Runner builds the step from the final event alone; the deltas before it are display.
      if (event.type === 'response_done') {
        const output = this.#pass(event.response.output as AgentOutputItem[], forwarded);
        yield { ...event, response: { ...event.response, output } } as StreamEvent;
      } else {
        yield event;
      }
    }
  }

  getRetryAdvice(
    args: ModelRetryAdviceRequest,
  ): Promise<ModelRetryAdvice | undefined> | ModelRetryAdvice | undefined {
    return this.#inner.getRetryAdvice?.(args);
  }

  #forward(request: ModelRequest): ModelRequest {
    const input = restoreUnlistedCalls(request.input);
    return input === request.input ? request : { ...request, input };
  }

  #pass(output: AgentOutputItem[], forwarded: ModelRequest): AgentOutputItem[] {
    const passed = passUnlistedCalls(output, () => listedNames(forwarded), this.#ours);
    this.#onStep(passed);
    return passed;
  }
}
