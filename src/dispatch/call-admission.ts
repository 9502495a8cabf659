import { errorMessage } from '../errors.js';
import type { JsonObject } from '../tools/json.js';
import type { ArgumentCheck } from '../tools/schema-validator.js';
import type { AnyTool, ToolRegistry } from '../tools/tool-registry.js';
import { argumentShapeProblem } from './argument-shape.js';
import type { CallJournal } from './call-journal.js';
import { CALL_STATE, type CallState, isAdvertised } from './call-state.js';
import type { CallAnnotations, CallValidation, ToolCallEnvelope, TurnInfo } from './envelope.js';
import { type ExecutionPolicy, intersectPolicies } from './execution-policy.js';
import type { ModelTokens } from './model-token-share.js';
import { type ParsedArguments, parseArguments } from './parse-arguments.js';
import { isUnreadable, type ReadCall } from './read-proposed-call.js';
import { toolNotFoundMessage } from './tool-not-found-message.js';

/** Facts about the turn a call belongs to; all optional. */
export interface TurnOptions {
  readonly iteration?: number;
  readonly sessionId?: string;
  readonly runId?: string | null;
  readonly model?: string | null;
  readonly provider?: string | null;
  readonly emitOrder?: number;
  readonly maxConcurrentTools?: number;
  /** Cancels the call: queued work never starts, running work sees its signal abort. */
  readonly signal?: AbortSignal;
  /** Names of the tools the model was shown this turn. Default: every tool that is not deferred. */
  readonly advertised?: ReadonlySet<string>;
  /** Narrows the dispatcher's execution policy for this call. */
  readonly policy?: ExecutionPolicy;
  /**
   * Handed, instead of the dispatcher's `context`, to the tools that list `context` in
   * `injected`. Default: the dispatcher's.
   */
  readonly context?: unknown;
  /**
   * The run's journal (`openRunJournal` from `switchyard/journal`): where the call reaches its
   * executor, it is answered from an earlier run's record or run at most once, its intent and
   * outcome recorded. Default none.
   */
  readonly journal?: CallJournal;
  /** The call's share of its model turn's tokens, when known (`ToolCallEnvelope.modelTokens`). */
  readonly modelTokens?: ModelTokens;
}

/** What admission needs from its dispatcher. */
export interface AdmissionOptions {
  readonly registry: ToolRegistry;
  readonly maxArgumentChars: number;
  readonly maxArgumentDepth: number;
  readonly generateCallId: () => string;
  readonly policy: ExecutionPolicy | undefined;
}

/** Builds the envelope of a call as it arrives: its tool, its arguments read and checked. */
export type Admit = (read: ReadCall, turnOptions: TurnOptions | undefined) => ToolCallEnvelope;

/**
 * Admission of a dispatcher's calls: resolves the tool (advertised only), reads the arguments
 * (JSON text or an object, bounded in size and depth, no cycles, no throwing getters), validates
 * them against the tool's schema, and builds the envelope with the arrival state the executor
 * trusts. A call that could not be read at all gets an envelope refused whatever a layer does.
 * Never throws for anything the model sent.
 */
export function createAdmission(options: AdmissionOptions): Admit {
  const { registry, maxArgumentChars, maxArgumentDepth, generateCallId } = options;
  const shapeLimits = { maxDepth: maxArgumentDepth, maxValues: maxArgumentChars };
  // Made once: the arguments of every call are read with one of the two.
  const emptyAllowed = { allowEmpty: true, maxLength: maxArgumentChars };
  const emptyRefused = { allowEmpty: false, maxLength: maxArgumentChars };
  const annotationsByTool = new WeakMap<AnyTool, CallAnnotations>();

  function policyFor(turnPolicy: ExecutionPolicy | undefined): ExecutionPolicy | undefined {
    if (turnPolicy === undefined) return options.policy;
    return options.policy === undefined
      ? turnPolicy
      : intersectPolicies(options.policy, turnPolicy);
  }

  // The tool seen last, and its annotations: a batch calls one tool over and over.
  let lastTool: AnyTool | null = null;
  let lastAnnotations: CallAnnotations = EMPTY_ANNOTATIONS;

  function annotationsOf(tool: AnyTool): CallAnnotations {
    if (tool === lastTool) return lastAnnotations;
    let annotations = annotationsByTool.get(tool);
    if (annotations === undefined) {
      annotations = Object.freeze({ ...tool.annotations, kind: tool.kind, safety: tool.safety });
      annotationsByTool.set(tool, annotations);
    }
    lastTool = tool;
    lastAnnotations = annotations;
    return annotations;
  }

  /** Reads model-supplied arguments and checks their shape: an object, JSON-sized, bounded depth. */
  function readArguments(raw: unknown, allowEmpty: boolean): ParsedArguments {
    const parsed = parseArguments(raw, allowEmpty ? emptyAllowed : emptyRefused);
    if (typeof parsed === 'string') return parsed;
    // JSON text shorter than twice the depth limit cannot nest that deep, nor hold a cycle.
    if (typeof raw === 'string' && raw.length < 2 * maxArgumentDepth) return parsed;
    return argumentShapeProblem(parsed, shapeLimits) ?? parsed;
  }

  function envelopeFor(read: ReadCall, turnOptions: TurnOptions | undefined): ToolCallEnvelope {
    const callId = read.id ?? generateCallId();
    const advertised = turnOptions?.advertised ?? null;
    const turn = turnFrom(turnOptions);
    if (isUnreadable(read))
      return malformedEnvelope(
        read.message,
        {
          name: '',
          callId,
          turn,
          signal: turnOptions?.signal,
          modelTokens: turnOptions?.modelTokens,
        },
        advertised,
      );
    const name = read.name;
    const found = registry.resolve(name);
    const tool = found !== undefined && isAdvertised(found, advertised) ? found : undefined;
    let args = UNREADABLE_ARGS;
    let unparseable = false;
    let validation: CallValidation;
    if (tool === undefined) {
      const parsed = readArguments(read.arguments, true);
      if (typeof parsed !== 'string') args = parsed;
      validation = {
        valid: false,
        status: 'tool_not_found',
        message: toolNotFoundMessage(name, registry, advertised),
        issues: [],
      };
    } else {
      const parsed = readArguments(read.arguments, tool.safety.readOnly);
      if (typeof parsed !== 'string') {
        args = parsed;
        const check = validate(tool, args);
        validation = check.valid
          ? check
          : {
              valid: false,
              status: 'schema_violation',
              message: check.repair,
              issues: check.issues,
            };
      } else {
        unparseable = true;
        validation = {
          valid: false,
          status: 'schema_violation',
          message: `Invalid arguments for tool "${tool.name}": ${parsed}.`,
          issues: [{ path: '(arguments)', keyword: 'json', message: parsed }],
        };
      }
    }
    const policy = policyFor(turnOptions?.policy);
    const context = turnOptions?.context;
    const journal = turnOptions?.journal;
    const state: CallState =
      policy === undefined && journal === undefined
        ? { tool, args, validation, unparseable, advertised, context, started: false }
        : {
            tool,
            args,
            validation,
            unparseable,
            advertised,
            policy,
            context,
            journal,
            started: false,
          };
    return envelope(state, {
      name,
      callId,
      turn,
      signal: turnOptions?.signal,
      modelTokens: turnOptions?.modelTokens,
    });
  }

  /** The validator's verdict; a validator that throws refuses the call instead of escaping. */
  function validate(tool: AnyTool, args: JsonObject): ArgumentCheck {
    try {
      return registry.validator.check(tool.name, tool.inputSchema, args);
    } catch (error) {
      const message = `the arguments could not be validated (${errorMessage(error)})`;
      return {
        valid: false,
        repair: `Invalid arguments for tool "${tool.name}": ${message}.`,
        issues: [{ path: '(arguments)', keyword: 'validator', message }],
      };
    }
  }

  /** The envelope of a call that could not be read at all: it runs through the layers, never the tool. */
  function malformedEnvelope(
    problem: string,
    facts: EnvelopeFacts,
    advertised: ReadonlySet<string> | null,
  ): ToolCallEnvelope {
    const message = `The tool call could not be read: ${problem}. Send each call as an object with a string \`name\` and a JSON object of \`arguments\`.`;
    const validation: CallValidation = {
      valid: false,
      status: 'schema_violation',
      message,
      issues: [{ path: '(call)', keyword: 'call', message: problem }],
    };
    const state: CallState = {
      tool: undefined,
      args: UNREADABLE_ARGS,
      validation,
      unparseable: true,
      malformed: true,
      advertised,
      started: false,
    };
    return envelope(state, facts);
  }

  function envelope(state: CallState, facts: EnvelopeFacts): ToolCallEnvelope {
    const { tool } = state;
    return {
      toolName: tool?.name ?? facts.name,
      toolArgs: state.args,
      callId: facts.callId,
      declaredExecutor: tool === undefined ? null : tool.executor.kind,
      schema: tool?.inputSchema ?? null,
      description: tool?.description ?? '',
      annotations: tool === undefined ? EMPTY_ANNOTATIONS : annotationsOf(tool),
      turn: facts.turn,
      signal: facts.signal,
      validation: state.validation,
      modelTokens: facts.modelTokens,
      [CALL_STATE]: state,
    } as ToolCallEnvelope;
  }

  return envelopeFor;
}

const EMPTY_ANNOTATIONS: CallAnnotations = Object.freeze({});

/** What an envelope carries besides the call state. */
interface EnvelopeFacts {
  readonly name: string;
  readonly callId: string;
  readonly turn: TurnInfo;
  readonly signal: AbortSignal | undefined;
  readonly modelTokens: ModelTokens | undefined;
}

function turnFrom(options: TurnOptions | undefined): TurnInfo {
  return {
    iteration: options?.iteration ?? 0,
    sessionId: options?.sessionId ?? '',
    runId: options?.runId ?? null,
    model: options?.model ?? null,
    provider: options?.provider ?? null,
    emitOrder: options?.emitOrder ?? 0,
    maxConcurrentTools: options?.maxConcurrentTools ?? 1,
  };
}

/** Frozen empty arguments stand in for arguments that could not be read. */
const UNREADABLE_ARGS: JsonObject = Object.freeze({}) as JsonObject;
