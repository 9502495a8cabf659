import {
  dynamicTool,
  InvalidToolInputError,
  jsonSchema,
  NoSuchToolError,
  type Tool,
  type ToolSet,
  tool,
} from 'ai';
import type { ToolCallResult } from 'switchyard';
import { approvalJournalOf, runApprovedCall, toolNeedsApproval } from 'switchyard/journal';
import {
  checkDispatcher,
  type StepAdapterOptions,
  StepTurn,
  stepTurnOptions,
} from 'switchyard/streams';
import { type ModelOutput, toModelOutput } from './model-output.js';
import { argumentsOf, parsableInput, wrapUnparsedInput } from './raw-input.js';

/** Options of `aiSdkTools`. */
export interface AiSdkToolsOptions extends StepAdapterOptions {
  /** Session facts stamped on every call; `iteration` counts the AI SDK's steps from 0. */
  readonly turn?: StepAdapterOptions['turn'];
  /**
   * The AI SDK's own tool approval for Switchyard tools: each tool that is destructive or asks for
   * confirmation (`toolNeedsApproval`) gets `needsApproval`, so its calls end the generation with
   * a `tool-approval-request`; the `tool-approval-response` the app sends back (in the messages of
   * the next `generateText` / `streamText`, from any process) is recorded as the decision in
   * `journal`, which must then be a run journal (`openRunJournal`), and the approved call runs
   * once. Default false.
   */
  readonly approvals?: boolean;
}

/** What `generateText`, `streamText` and `ToolLoopAgent` take: spread it into their options. */
export interface AiSdkToolSet {
  /** One AI SDK tool per advertised Switchyard tool; each `execute` joins its step's turn. */
  readonly tools: ToolSet;
  /**
   * Passes unknown names and unparseable input on to Switchyard instead of letting the AI SDK
   * answer them.
   */
  readonly repairToolCall: (options: {
    toolCall: { toolCallId: string; toolName: string; input: string };
    tools?: object;
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
 * Unknown names and unparseable input reach Switchyard through `repairToolCall`, which the AI SDK
 * calls before answering such a call itself.
 *
 * With a run journal (`journal`), a call the journal completed in an earlier run returns its
 * recorded result instead of running again. With `approvals`, the AI SDK's own tool approval holds
 * the calls that need approval (`tool-approval-request`); once the app answers with a
 * `tool-approval-response` in the messages, an approved call is recorded as approved in the
 * journal, bound to its id and arguments, and runs once. Pass `experimental_toolApprovalSecret`
 * to `generateText` so the AI SDK refuses an approval whose call input changed.
 *
 * @example
 * const result = await generateText({ model, prompt, stopWhen: stepCountIs(5), ...aiSdkTools({ dispatcher }) });
 * @throws InvalidOptionError when `dispatcher` is missing, or `approvals` is on without a run
 *   journal.
 */
export function aiSdkTools(options: AiSdkToolsOptions): AiSdkToolSet {
  checkDispatcher(options, 'aiSdkTools');
  const { dispatcher } = options;
  const journal = approvalJournalOf(options, 'aiSdkTools');
  const steps = new WeakMap<object, StepTurn>();
  let stepCount = 0;

  // The AI SDK hands every call of a step the same `messages` array: that array names the step.
  function stepOf(messages: object, signal: AbortSignal | undefined): StepTurn {
    let step = steps.get(messages);
    if (step === undefined) {
      step = new StepTurn(stepTurnOptions(options, stepCount), signal);
      stepCount += 1;
      steps.set(messages, step);
    }
    return step;
  }

  function execute(name: string) {
    // The AI SDK runs a call that needs approval only once an approval response approved it.
    const approved = journal !== undefined && toolNeedsApproval(dispatcher.registry.resolve(name));
    return (
      input: unknown,
      {
        toolCallId,
        messages,
        abortSignal,
      }: { toolCallId: string; messages: object; abortSignal?: AbortSignal },
    ): Promise<ToolCallResult> => {
      const call = { id: toolCallId, name, arguments: argumentsOf(input) as never };
      if (!approved) return stepOf(messages, abortSignal).dispatch(call, abortSignal);
      // Once decided, the call is dispatched again in a turn of its own: the step's turn answered it.
      let turn: StepTurn | undefined = stepOf(messages, abortSignal);
      const dispatch = (): Promise<ToolCallResult> => {
        const current = turn ?? new StepTurn(stepTurnOptions(options, stepCount++), abortSignal);
        turn = undefined;
        return current.dispatch(call, abortSignal);
      };
      return runApprovedCall({ journal, decidedBy: APPROVER, dispatch });
    };
  }

  const modelOutput = ({ output }: { output: ToolCallResult }): ModelOutput =>
    toModelOutput(output);
  // A JSON Schema without `validate` is one the AI SDK takes on trust: it parses the call's JSON
  // and passes whatever parsed on, without a validation step (and its await) of its own.
  const anyInput = (schema: object) => jsonSchema(schema as never);

  const tools: Record<string, Tool> = {};
  for (const definition of dispatcher.registry.modelDefinitions(options.include)) {
    tools[definition.name] = tool({
      description: definition.description,
      inputSchema: anyInput(definition.inputSchema),
      // The AI SDK's own field: providers that take examples get them natively, and
      // `addToolInputExamplesMiddleware` writes them into the description for the others.
      ...(definition.inputExamples === undefined
        ? {}
        : { inputExamples: definition.inputExamples.map((input) => ({ input })) }),
      ...(journal !== undefined && toolNeedsApproval(dispatcher.registry.resolve(definition.name))
        ? { needsApproval: true }
        : {}),
      execute: execute(definition.name),
      toModelOutput: modelOutput,
    } as never) as Tool;
  }

  // A name the model made up gets a tool of its own, so the call reaches Switchyard's
  // `tool_not_found`. It is defined on the very tool set the AI SDK is parsing with, and not
  // enumerable, so the model is never shown it; lookups of the real tools stay plain property reads.
  function addStrayTool(set: object, name: string): void {
    if (Object.hasOwn(set, name) || !Object.isExtensible(set)) return;
    Object.defineProperty(set, name, {
      value: dynamicTool({
        description: '',
        inputSchema: anyInput({ type: 'object' }),
        execute: execute(name) as never,
        toModelOutput: modelOutput as never,
      }),
      enumerable: false,
      configurable: true,
    });
  }

  return {
    tools,
    repairToolCall: async ({ toolCall, tools: parsing, error }) => {
      if (NoSuchToolError.isInstance(error) && parsing != null) {
        addStrayTool(parsing, toolCall.toolName);
        return { type: 'tool-call', ...toolCall, input: parsableInput(toolCall.input) };
      }
      return InvalidToolInputError.isInstance(error)
        ? { type: 'tool-call', ...toolCall, input: wrapUnparsedInput(toolCall.input) }
        : null;
    },
  };
}

/** Who the journal records as having approved a call an approval response approved. */
const APPROVER = 'ai-sdk';
