// The README's quick start: define a tool, build a registry, add middleware, dispatch calls.
// Run: npm run build && npx tsx examples/quick-start.ts
// #region quick-start
import {
  composeToolCallers,
  createDispatcher,
  createToolRegistry,
  defineTool,
  mergeAudit,
  type ToolCaller,
} from 'switchyard';

const getWeather = defineTool<
  { city: string; unit?: 'c' | 'f' },
  { city: string; temperature: number }
>({
  name: 'get_weather',
  description: 'Current temperature in a city.',
  inputSchema: {
    type: 'object',
    properties: {
      city: { type: 'string', minLength: 1 },
      unit: { type: 'string', enum: ['c', 'f'] },
    },
    required: ['city'],
    additionalProperties: false,
  },
  safety: { readOnly: true, openWorld: true },
  timeoutMs: 2_000,
  handler: async ({ city, unit = 'c' }) => ({ city, temperature: unit === 'c' ? 21 : 70 }),
});

// A middleware layer: time every call and record it in the audit trail.
const timing: ToolCaller = async function timing(call, next) {
  const started = performance.now();
  const result = await next(call);
  const elapsedMs = performance.now() - started;
  return {
    ...result,
    audit: mergeAudit(result.audit, { layers: [{ name: 'timing', status: 'ok', elapsedMs }] }),
  };
};

const dispatcher = createDispatcher({
  registry: createToolRegistry([getWeather]),
  caller: composeToolCallers([timing]),
});

// Calls as a model proposes them: JSON text arguments, possibly broken.
const calls = [
  { id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
  { id: 'call_2', name: 'get_weather', arguments: '{"city":"Oslo","unit":"kelvin"}' },
  { id: 'call_3', name: 'get_wether', arguments: '{"city":"Rome"}' },
];
for (const call of calls) {
  const result = await dispatcher.dispatch(call);
  console.log(`${result.toolCallId} ${result.status}: ${result.observation}`);
}
// call_1 ok, call_2 schema_violation (the handler never ran; the observation says how to repair
// the arguments), call_3 tool_not_found (naming get_weather)
// #endregion quick-start
