/**
 * What one dispatch costs over calling the handler directly: name lookup, argument parsing and
 * validation of a small object, the envelope, N middleware layers, the result and the events.
 * Target: the whole path with 10 layers adds at most 4 µs per call.
 *
 * Run: npx tsx bench/dispatch-overhead.bench.ts
 */
import { Bench } from 'tinybench';
import { printRatios } from './support/report.js';
import {
  addTool,
  composeToolCallers,
  createDispatcher,
  createToolRegistry,
  type ToolCaller,
  type ToolRuntime,
} from './support/switchyard.js';

const CALLS = 1000;

const add = addTool;

const registry = createToolRegistry([add]);
const passThrough = (index: number): ToolCaller =>
  Object.defineProperty((call, next) => next(call), 'name', { value: `pass_${index}` });
const tenLayers = composeToolCallers(Array.from({ length: 10 }, (_, index) => passThrough(index)));

const bare = createDispatcher({ registry });
const layered = createDispatcher({ registry, caller: tenLayers });
const observed = createDispatcher({ registry, caller: tenLayers });
let seen = 0;
observed.events$.subscribe(() => {
  seen += 1;
});

const runtime = {} as ToolRuntime;
const handler = add.handler!.bind(add);
const args = { a: 1, b: 2 };
const json = '{"a":1,"b":2}';
let sink = 0;

const bench = new Bench({
  name: `dispatch overhead (${CALLS} sequential calls per iteration; per call)`,
  time: 1500,
  warmup: true,
});
bench
  .add('handler called directly (baseline)', async () => {
    for (let index = 0; index < CALLS; index += 1)
      sink += await handler({ a: 1, b: index }, runtime);
  })
  .add('dispatch, no middleware, object args', async () => {
    for (let index = 0; index < CALLS; index += 1) {
      sink += (await bare.dispatch({ id: 'c', name: 'add', arguments: args })).ok ? 1 : 0;
    }
  })
  .add('dispatch, 10 pass-through layers, object args', async () => {
    for (let index = 0; index < CALLS; index += 1) {
      sink += (await layered.dispatch({ id: 'c', name: 'add', arguments: args })).ok ? 1 : 0;
    }
  })
  .add('dispatch, 10 layers, JSON string args', async () => {
    for (let index = 0; index < CALLS; index += 1) {
      sink += (await layered.dispatch({ id: 'c', name: 'add', arguments: json })).ok ? 1 : 0;
    }
  })
  .add('dispatch, 10 layers, JSON args, events subscribed', async () => {
    for (let index = 0; index < CALLS; index += 1) {
      sink += (await observed.dispatch({ id: 'c', name: 'add', arguments: json })).ok ? 1 : 0;
    }
  });

await bench.run();
const perCall = printRatios(bench, 'handler called directly (baseline)', CALLS, 'µs');
const overhead =
  (perCall.get('dispatch, 10 layers, JSON string args') ?? Number.NaN) -
  (perCall.get('handler called directly (baseline)') ?? Number.NaN);
console.log(
  `whole path (10 layers, JSON args) adds ${(overhead * 1000).toFixed(2)} µs per call; target ≤ 4 µs: ${overhead * 1000 <= 4 ? 'met' : 'MISSED'}`,
);
if (sink < 0 || seen < 0) console.log(sink, seen);
