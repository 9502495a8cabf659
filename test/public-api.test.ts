import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importInFreshProcess } from './support/import-in-fresh-process.js';

// The runtime names of every entry point of the core package, sorted. Adding, renaming or removing
// one changes what users import: make that a deliberate edit of these lists (and of the changelog).
// The root stays small (what a first-time user needs); everything else has a subpath. Each
// integration package pins its own names in its public-api test.
const ENTRY_POINTS: Record<string, readonly string[]> = {
  '.': [
    'ActorStoppedError',
    'BinderFailureError',
    'CancelledError',
    'DONE_MARKER',
    'HandoffArtifactError',
    'InvalidArgumentError',
    'InvalidOptionError',
    'MissingPeerDependencyError',
    'ModelError',
    'ScopeViolationError',
    'SwitchyardError',
    'ToolDefinitionError',
    'ToolTimeoutError',
    'agentLoop',
    'composeToolCallers',
    'createDispatcher',
    'createToolRegistry',
    'defineTool',
    'dispatchCalls',
    'dispatchStreamedTurn',
    'dispatchTurn',
    'governanceStack',
    'isRecoverable',
    'mergeAudit',
    'narrowExecutionPolicy',
    'retryableDenial',
    'shortCircuitResult',
    'streamTurn',
    'terminalDenial',
    'toProposedCall',
    'toolInjectParam',
    'toolOutput',
    'toolsUseMiddleware',
    'withAuditLog',
    'withBudget',
    'withConsent',
    'withDryRun',
    'withExecutionPolicy',
    'withGuardrails',
    'withHandoffArtifact',
    'withIdempotency',
    'withLoopGuard',
    'withNaturalLanguageExecutor',
    'withRateLimit',
    'withRedaction',
    'withRequiredReason',
    'withScopedExecutor',
    'withSummary',
    'withTelemetry',
    'withTimeout',
  ],
  './actors': [
    'ActorStoppedError',
    'LoopDetector',
    'MAX_CHARS_PER_WRITE',
    'createActor',
    'createJsonlWriter',
    'createSessionActor',
  ],
  './detectors': [
    'createNativeDetector',
    'createTextDetector',
    'detectToolCalls',
    'parseTextCall',
    'realTimeScheduler',
  ],
  './dispatch': [
    'RESERVED_STATUSES',
    'TOOL_CALL_ERROR_CATEGORIES',
    'cancelledResult',
    'classifyError',
    'contentText',
    'createDispatcher',
    'exceptionResult',
    'fromInternal',
    'intersectPolicies',
    'isRecoverable',
    'isToolOutput',
    'isTransient',
    'mergeAudit',
    'narrowExecutionPolicy',
    'policyDenial',
    'requiredCapabilities',
    'retryableDenial',
    'shortCircuitResult',
    'terminalDenial',
    'toProposedCall',
    'toWireCategory',
    'toolOutput',
    'withExecutionPolicy',
  ],
  './executors': ['createInlineExecutor', 'createWorkerPool'],
  './middleware': [
    'BinderFailureError',
    'DEFAULT_BINDER_SYSTEM',
    'DEFAULT_INTENT_DESCRIPTION',
    'HandoffArtifactError',
    'NO_REASON_GIVEN',
    'NextCalledTwiceError',
    'ScopeViolationError',
    'attachAudit',
    'attachLayer',
    'binderToolName',
    'composeToolCallers',
    'consentDeniedResult',
    'createMemoryIdempotencyStore',
    'defaultToolCaller',
    'fanOutSpanSink',
    'governanceStack',
    'intersectPolicies',
    'langfuseSpanSink',
    'mergeAudit',
    'narrowExecutionPolicy',
    'naturalLanguageExecutorMiddleware',
    'naturalLanguageExecutorSchemaTransform',
    'needsConsent',
    'noopSpanSink',
    'normalizeHandoff',
    'otelSpanSink',
    'policyDenial',
    'renderBinderPrompt',
    'requiredCapabilities',
    'setTimeoutTimer',
    'stderrSpanSink',
    'toolCallSpan',
    'toolInjectParam',
    'toolsUseMiddleware',
    'withAuditLog',
    'withBudget',
    'withConsent',
    'withDryRun',
    'withExecutionPolicy',
    'withGuardrails',
    'withHandoffArtifact',
    'withIdempotency',
    'withNaturalLanguageExecutor',
    'withRateLimit',
    'withRedaction',
    'withRequiredReason',
    'withScopedExecutor',
    'withSummary',
    'withTelemetry',
    'withTimeout',
  ],
  './providers': [
    'DEFAULT_STREAM_IDLE_TIMEOUT_MS',
    'abortedTurn',
    'modelError',
    'streamProviderTurn',
    'toModelError',
  ],
  './receipts': [
    'GENESIS_HASH',
    'LocalReceiptLog',
    'RECEIPT_SCHEMA_VERSION',
    'buildReceipt',
    'chainReceipt',
    'receiptHash',
    'receiptLogPath',
    'redactKeys',
    'verifyReceipts',
  ],
  './streams': [
    'DEFAULT_INTERRUPT_GRACE_MS',
    'DEFAULT_MAX_CONCURRENT_TOOLS',
    'StepTurn',
    'callConstraint',
    'checkDispatcher',
    'dispatchCalls',
    'dispatchStreamedTurn',
    'dispatchTurn',
    'eagerGate',
    'isFatalFailure',
    'isSafeToStartEarly',
    'stepTurnOptions',
    'streamTurn',
  ],
  './testing': ['createScriptedModel', 'deferred', 'isSafeFinish', 'recordingTool'],
  './tools': [
    'FOREIGN_TOOL_NAME_PATTERN',
    'SIDE_EFFECT_LEVELS',
    'SchemaValidator',
    'TOOL_KINDS',
    'TOOL_NAME_PATTERN',
    'ToolRegistry',
    'assertToolName',
    'canonicalHash',
    'canonicalJson',
    'compileLinearRegex',
    'createToolRegistry',
    'defaultSchemaValidator',
    'defineTool',
    'deriveKind',
    'describeWithExamples',
    'hasOwn',
    'isPlainObject',
    'isStandardSchema',
    'providerSafeAlias',
    'quoteLiteral',
    'resolveSafety',
    'sha256Hex',
    'sideEffectRank',
    'writeJson',
  ],
  './agent': ['DONE_MARKER', 'agentLoop', 'withLoopGuard'],
  './journal': [
    'IN_DOUBT_ERROR',
    'JournalBusyError',
    'JournalDecisionError',
    'RunJournal',
    'approvalJournalOf',
    'claimOf',
    'createFileJournalStore',
    'decideApproval',
    'listInDoubtCalls',
    'listPendingApprovals',
    'openRunJournal',
    'parseRecord',
    'resolveInDoubtCall',
    'runApprovedCall',
    'serializeRecord',
    'toolNeedsApproval',
  ],
  './extension': [
    'CostTally',
    'FifoQueue',
    'checkBoolean',
    'checkFunction',
    'checkNonNegative',
    'checkNumberMap',
    'checkObject',
    'checkOneOf',
    'checkOptionalFunction',
    'checkPositive',
    'checkString',
    'checkStringList',
    'checkTimeLimit',
    'errorMessage',
    'fromErrorData',
    'optionsObject',
    'requireOptionalPeer',
    'sleep',
    'toErrorData',
  ],
  './errors': [
    'ActorStoppedError',
    'BinderFailureError',
    'CancelledError',
    'HandoffArtifactError',
    'InvalidArgumentError',
    'InvalidOptionError',
    'JournalBusyError',
    'JournalDecisionError',
    'MissingPeerDependencyError',
    'ModelError',
    'NextCalledTwiceError',
    'RedactorFailureError',
    'ScopeViolationError',
    'SwitchyardError',
    'ToolDefinitionError',
    'ToolTimeoutError',
    'errorMessage',
  ],
};

interface ExportTarget {
  readonly '@switchyard/source': string;
  readonly types: string;
  readonly default: string;
}
const exportsMap = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  .exports as Record<string, ExportTarget | string>;

describe('the entry points', () => {
  it('are exactly the package.json exports (besides ./package.json)', () => {
    const declared = Object.keys(exportsMap).filter((key) => key !== './package.json');
    expect(declared.sort()).toEqual(Object.keys(ENTRY_POINTS).sort());
  });

  for (const [entry, names] of Object.entries(ENTRY_POINTS)) {
    it(`${entry} exports exactly its pinned names, none undefined`, async () => {
      const target = exportsMap[entry] as ExportTarget;
      const module = (await import(`../${target['@switchyard/source']}`)) as Record<
        string,
        unknown
      >;
      expect(Object.keys(module).sort()).toEqual([...names]);
      const missing = Object.entries(module).filter(([, value]) => value === undefined);
      expect(missing.map(([name]) => name)).toEqual([]);
    });
  }

  it('keeps the root small', () => {
    expect(ENTRY_POINTS['.']?.length).toBeLessThanOrEqual(60);
  });
});

describe('importing the root', () => {
  it('loads neither a provider SDK, nor an MCP SDK, nor a queue client, nor piscina', () => {
    expect(
      importInFreshProcess(
        './src/index.ts',
        '^(openai|@anthropic-ai\\\\/sdk|@modelcontextprotocol|bullmq|ioredis|piscina)(\\\\/|$)',
      ),
    ).toBe('imported');
  });

  it('is caught by the same check when a subpath does load one', () => {
    expect(() => importInFreshProcess('./src/executors.ts', '^piscina(\\\\/|$)')).toThrow(
      /loaded piscina/,
    );
  });
});
