import { dynamicTool, InvalidToolInputError, jsonSchema, type Tool, type ToolSet, tool } from 'ai';
import type { Dispatcher } from '../../dispatch/dispatcher.js';
import type { ToolCallResult } from '../../dispatch/result.js';
import { InvalidOptionError } from '../../errors.js';
import type { DispatchTurnOptions } from '../../streams/turn-options.js';
import { StepTurn } from '../step-turn.js';
import { type ModelOutput, toModelOutput } from './model-output.js';
import { argumentsOf, wrapUnparsedInput } from './raw-input.js';

/** Options of `aiSdkTools`. */
export interface AiSdkToolsOptions
  extends Pick<DispatchTurnOptions, 'maxConcurrentTools' | 'cancelSiblingsOnFailure' | 'policy'> {
  /** The dispatcher whose registry and middleware run every call. */
  readonly dispatcher: Dispatcher;
  /** Session facts stamped on every call; `iteration` counts the AI SDK's steps from 0. */
  readonly turn?: Omit<NonNullable<DispatchTurnOptions['turn']>, 'iteration'>;
  /** Deferred tools promoted into the model's tool list. Default: none. */
  readonly include?: Iterable<string>;
}

/** What `generateText`, `streamText` and `ToolLoopAgent` take: spread it into their options. */
export interface AiSdkToolSet {
  /** One AI SDK tool per advertised Switchyard tool; each `execute` joins its step's turn. */
  readonly tools: ToolSet;
  /** Passes unparseable input on to Switchyard instead of letting the AI SDK answer it. */
  readonly repairToolCall: (options: {
    toolCall: { toolCallId: string; toolName: string; input: string };
    error: unknown;
  }) => Promise<{ type: 'tool-call'; toolCallId: string; toolName: string; input: string } | null>;
}

/**
 * Hands a Switchyard dispatcher to the AI SDK. Every call the model proposes in a step — unknown
 * names, unparseable JSON and schema violations included — is dispatched through Switchyard as one
 * turn: one result and (with audit on) one receipt per call, the turn's `maxConcurrentTools`,
 * lanes and `emitOrder` across the step, and the model reads Switchyard's repair messages. The
 * AI SDK's abort signal cancels the step's calls.
 *
 * Validation is Switchyard's: the AI SDK is shown each tool's JSON Schema but accepts any input.
 * Unknown names reach Switchyard because the tool set answers every name; options that copy the
 * tool set (`activeTools`, `prepareStep` returning `activeTools`, tool callers) lose that, and the
 * AI SDK then answers unknown names itself: narrow the tools with Switchyard's `include` or the
 * dispatcher's policy instead.
 *
 * @example
 * const result = await generateText({ model, prompt, stopWhen: stepCountIs(5), ...aiSdkTools({ dispatcher }) });
 * @throws InvalidOptionError when `dispatcher` is missing.
 */
export function aiSdkTools(options: AiSdkToolsOptions): AiSdkToolSet {
  const { dispatcher } = options;
  if (typeof dispatcher?.dispatch !== 'function') {
    throw new InvalidOptionError(
      'dispatcher',
      'aiSdkTools: dispatcher must be a Switchyard dispatcher',
    );
  }
  const steps = new WeakMap<object, StepTurn>();
  let stepCount = 0;

  // The AI SDK hands every call of a step the same `messages` array: that array names the step.
  function stepOf(messages: object): StepTurn {
    let step = steps.get(messages);
    if (step === undefined) {
      step = new StepTurn({
        dispatcher,
        maxConcurrentTools: options.maxConcurrentTools,
        cancelSiblingsOnFailure: options.cancelSiblingsOnFailure,
        policy: options.policy,
        turn: { ...options.turn, iteration: stepCount },
      });
      stepCount += 1;
      steps.set(messages, step);
    }
    return step;
  }

  function execute(name: string) {
    return (
      input: unknown,
      {
        toolCallId,
        messages,
        abortSignal,
      }: { toolCallId: string; messages: object; abortSignal?: AbortSignal },
    ): Promise<ToolCallResult> =>
      stepOf(messages).dispatch(
        { id: toolCallId, name, arguments: argumentsOf(input) as never },
        abortSignal,
      );
  }

  const modelOutput = ({ output }: { output: ToolCallResult }): ModelOutput =>
    toModelOutput(output);
  const anyInput = (schema: object) =>
    jsonSchema(schema as never, { validate: (value) => ({ success: true, value }) });

  const known: Record<string, Tool> = {};
  for (const definition of dispatcher.registry.modelDefinitions(options.include)) {
    known[definition.name] = tool({
      description: definition.description,
      inputSchema: anyInput(definition.inputSchema),
      execute: execute(definition.name),
      toModelOutput: modelOutput,
    } as never) as Tool;
  }

  // A tool for a name the model made up, so the call reaches Switchyard's `tool_not_found`.
  const strays = new Map<string, Tool>();
  function strayTool(name: string): Tool {
    let stray = strays.get(name);
    if (stray === undefined) {
      stray = dynamicTool({
        description: '',
        inputSchema: anyInput({ type: 'object' }),
        execute: execute(name) as never,
        toModelOutput: modelOutput as never,
      });
      strays.set(name, stray);
    }
    return stray;
  }

  // Lists only the real tools (what the model is shown), and answers any other name the AI SDK
  // looks up with a stray tool.
  const tools = new Proxy(known, {
    getOwnPropertyDescriptor(target, key) {
      const own = Reflect.getOwnPropertyDescriptor(target, key);
      if (own !== undefined || typeof key !== 'string') return own;
      return { value: strayTool(key), writable: false, enumerable: false, configurable: true };
    },
    get(target, key, receiver) {
      if (typeof key !== 'string' || Object.hasOwn(target, key) || key === 'then') {
        return Reflect.get(target, key, receiver);
      }
      return strayTool(key);
    },
  });

  return {
    tools,
    repairToolCall: async ({ toolCall, error }) =>
      InvalidToolInputError.isInstance(error)
        ? { type: 'tool-call', ...toolCall, input: wrapUnparsedInput(toolCall.input) }
        : null,
  };
}
