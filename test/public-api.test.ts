import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The runtime names of every entry point, sorted. Adding, renaming or removing one changes what
// users import: make that a deliberate edit of these lists. The root stays small (what a first-time
// user needs); everything else has a subpath.
const ENTRY_POINTS: Record<string, { readonly source: string; readonly names: readonly string[] }> =
  {
    './binder-bench': {
      source: '../src/binder-bench/index.js',
      names: [
        'BENCH_FILES',
        'DEFAULT_BINDERS',
        'SAMPLE_CASES_PATH',
        'accuracyPlotSpec',
        'benchReportHtml',
        'createLexicalBinder',
        'drawLatency',
        'fakeClock',
        'formatBenchTable',
        'latencyCdfSpec',
        'loadChartingLibrary',
        'matchArguments',
        'normalizeAnswerString',
        'oracleArguments',
        'parseBenchCases',
        'parseBinderSpec',
        'readBenchCases',
        'realClock',
        'renderBenchPlots',
        'runBinderBenchmark',
        'sampleCases',
        'startSimulatedBinderServer',
        'summarizeLatencies',
        'writeBenchResults',
      ],
    },
    '.': {
      source: '../src/index.js',
      names: [
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
        'retryableDenial',
        'shortCircuitResult',
        'streamTurn',
        'terminalDenial',
        'toProposedCall',
        'toolInjectParam',
        'toolOutput',
        'toolsUseMiddleware',
        'withAuditLog',
        'withConsent',
        'withDryRun',
        'withExecutionPolicy',
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
    },
    './adapters/ai-sdk': {
      source: '../src/adapters/ai-sdk/index.js',
      names: ['aiSdkTools', 'fromAiSdkTools', 'toModelOutput'],
    },
    './adapters/langchain': {
      source: '../src/adapters/langchain/index.js',
      names: [
        'fromLangChainTools',
        'proposedCallsFromAIMessage',
        'switchyardToolNode',
        'toToolMessage',
      ],
    },
    './adapters/openai-agents': {
      source: '../src/adapters/openai-agents/index.js',
      names: ['fromOpenAIAgentsTools', 'openAIAgentsTools', 'unlistedCallOf'],
    },
    './actors': {
      source: '../src/actors/index.js',
      names: [
        'ActorStoppedError',
        'LoopDetector',
        'MAX_CHARS_PER_WRITE',
        'createActor',
        'createJsonlWriter',
        'createSessionActor',
      ],
    },
    './detectors': {
      source: '../src/streams/detectors.js',
      names: [
        'createNativeDetector',
        'createTextDetector',
        'detectToolCalls',
        'parseTextCall',
        'realTimeScheduler',
      ],
    },
    './dispatch': {
      source: '../src/dispatch/index.js',
      names: [
        'RESERVED_STATUSES',
        'TOOL_CALL_ERROR_CATEGORIES',
        'cancelledResult',
        'classifyError',
        'createDispatcher',
        'exceptionResult',
        'fromInternal',
        'intersectPolicies',
        'isRecoverable',
        'isToolOutput',
        'isTransient',
        'mergeAudit',
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
    },
    './executors': {
      source: '../src/executors.js',
      names: ['createInlineExecutor', 'createWorkerPool'],
    },
    './mcp': {
      source: '../src/mcp/index.js',
      names: [
        'McpConnectError',
        'McpSdkMissingError',
        'connectMcpServers',
        'createMcpServer',
        'mcpToolList',
        'mcpToolName',
        'mcpToolSafety',
      ],
    },
    './queue': {
      source: '../src/queue/index.js',
      names: [
        'DEFAULT_QUEUE',
        'createQueueExecutor',
        'createTaskQueue',
        'onQueue',
        'startQueueWorker',
        'startTaskWorker',
      ],
    },
    './middleware': {
      source: '../src/middleware/index.js',
      names: [
        'BinderFailureError',
        'DEFAULT_BINDER_SYSTEM',
        'DEFAULT_INTENT_DESCRIPTION',
        'HandoffArtifactError',
        'NO_REASON_GIVEN',
        'NextCalledTwiceError',
        'ScopeViolationError',
        'composeToolCallers',
        'createAnthropicBinder',
        'createMemoryIdempotencyStore',
        'createOpenAIBinder',
        'defaultToolCaller',
        'fanOutSpanSink',
        'governanceStack',
        'intersectPolicies',
        'langfuseSpanSink',
        'mergeAudit',
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
        'withConsent',
        'withDryRun',
        'withExecutionPolicy',
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
    },
    './providers': {
      source: '../src/providers/index.js',
      names: ['abortedTurn', 'modelError', 'toModelError'],
    },
    './providers/anthropic': {
      source: '../src/providers/anthropic/index.js',
      names: [
        'AnthropicDeltaTranslator',
        'DEFAULT_ANTHROPIC_MAX_TOKENS',
        'createAnthropicModel',
        'isSafeAnthropicStop',
        'proposedCallsFromMessage',
        'toAnthropicMessages',
        'toAnthropicModelError',
        'toAnthropicRequest',
        'toAnthropicToolResults',
        'toAnthropicTools',
      ],
    },
    './providers/openai': {
      source: '../src/providers/openai/index.js',
      names: [
        'chatChunkDeltas',
        'createOpenAIChatModel',
        'createOpenAIResponsesModel',
        'openAIModelError',
        'proposedCallsFromChatCompletion',
        'proposedCallsFromResponse',
        'responsesEventDeltas',
        'toChatMessages',
        'toChatToolMessages',
        'toChatTools',
        'toResponsesFunctionOutputs',
        'toResponsesInput',
        'toResponsesTools',
      ],
    },
    './receipts': {
      source: '../src/middleware/receipts/index.js',
      names: [
        'GENESIS_HASH',
        'LocalReceiptLog',
        'buildReceipt',
        'chainReceipt',
        'receiptHash',
        'receiptLogPath',
        'redactKeys',
        'verifyReceipts',
      ],
    },
    './streams': {
      source: '../src/streams/index.js',
      names: [
        'DEFAULT_MAX_CONCURRENT_TOOLS',
        'callConstraint',
        'dispatchCalls',
        'dispatchStreamedTurn',
        'dispatchTurn',
        'eagerGate',
        'isFatalFailure',
        'isSafeToStartEarly',
        'streamTurn',
      ],
    },
    './host-tools': {
      source: '../src/host-tools/index.js',
      names: [
        'commandTools',
        'compileLinearRegex',
        'createRootScope',
        'evaluateArithmetic',
        'gitToolbox',
        'gitTools',
        'isHostRefusal',
        'matchesArgvPrefix',
        'queryJson',
        'readTools',
        'renderAsText',
        'stdlibTools',
        'withHostToolResults',
      ],
    },
    './testing': {
      source: '../src/testing/index.js',
      names: ['createScriptedModel', 'deferred', 'isSafeFinish', 'recordingTool'],
    },
    './tools': {
      source: '../src/tools/index.js',
      names: [
        'FOREIGN_TOOL_NAME_PATTERN',
        'SIDE_EFFECT_LEVELS',
        'SchemaValidator',
        'TOOL_KINDS',
        'TOOL_NAME_PATTERN',
        'ToolRegistry',
        'assertToolName',
        'canonicalHash',
        'canonicalJson',
        'createToolRegistry',
        'defineTool',
        'deriveKind',
        'isStandardSchema',
        'providerSafeAlias',
        'resolveSafety',
        'sha256Hex',
        'sideEffectRank',
      ],
    },
    './vault': {
      source: '../src/vault/index.js',
      names: [
        'DEFAULT_FIELD_WEIGHTS',
        'DEFAULT_NAMESPACE_DECAY',
        'MAX_REGEX_LENGTH',
        'createToolSearch',
        'toolSearch',
      ],
    },
  };
const exportsMap = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  .exports as Record<string, unknown>;

describe('the entry points', () => {
  it('are exactly the package.json exports (besides ./package.json)', () => {
    const declared = Object.keys(exportsMap).filter((key) => key !== './package.json');
    expect(declared.sort()).toEqual(Object.keys(ENTRY_POINTS).sort());
  });

  for (const [entry, { source, names }] of Object.entries(ENTRY_POINTS)) {
    it(`${entry} exports exactly its pinned names, none undefined`, async () => {
      const module = (await import(source)) as Record<string, unknown>;
      expect(Object.keys(module).sort()).toEqual([...names]);
      const missing = Object.entries(module).filter(([, value]) => value === undefined);
      expect(missing.map(([name]) => name)).toEqual([]);
    });
  }

  it('keeps the root small', () => {
    expect(ENTRY_POINTS['.']?.names.length).toBeLessThanOrEqual(60);
  });
});

// A resolve hook that fails the import the moment a heavy optional package is asked for.
const FORBID = (pattern: string) =>
  `data:text/javascript,${encodeURIComponent(
    `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(
  'export async function resolve(s, c, n) { if (/${pattern}/.test(s)) throw new Error("loaded " + s); return n(s, c); }'
));`,
  )}`;

function importInFreshProcess(source: string, forbidden: string): string {
  return execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      FORBID(forbidden),
      '--input-type=module',
      '-e',
      `await import(${JSON.stringify(source)}); console.log('imported');`,
    ],
    { cwd: new URL('..', import.meta.url), encoding: 'utf8', stdio: 'pipe' },
  ).trim();
}

describe('importing the root', () => {
  it('loads neither provider SDK nor piscina', () => {
    expect(
      importInFreshProcess('./src/index.ts', '^(openai|@anthropic-ai\\\\/sdk|piscina)(\\\\/|$)'),
    ).toBe('imported');
  });

  it('loads no MCP SDK, nor does switchyard/mcp until a server is connected or served', () => {
    const sdk = '^@modelcontextprotocol\\\\/';
    expect(importInFreshProcess('./src/index.ts', sdk)).toBe('imported');
    expect(importInFreshProcess('./src/mcp/index.ts', sdk)).toBe('imported');
  });

  it('loads no queue client, nor does switchyard/queue until an executor or worker starts', () => {
    const clients = '^(bullmq|ioredis)(\\\\/|$)';
    expect(importInFreshProcess('./src/index.ts', clients)).toBe('imported');
    expect(importInFreshProcess('./src/queue/index.ts', clients)).toBe('imported');
  });

  it('is caught by the same check when a subpath does load one', () => {
    expect(() => importInFreshProcess('./src/executors.ts', '^piscina(\\\\/|$)')).toThrow(
      /loaded piscina/,
    );
  });
});
