// docs/testing.md: a call cancelled while a layer holds it never starts its handler.
// Run: npm run build && npx tsx examples/docs/testing-cancel.ts
// #region cancelled-in-layer
import { composeToolCallers, createDispatcher, createToolRegistry } from 'switchyard';
import { deferred, recordingTool } from 'switchyard/testing';

const search = recordingTool({ name: 'search', timeoutMs: 50 }).hangs();
const consentGiven = deferred();
const dispatcher = createDispatcher({
  registry: createToolRegistry([search.tool]),
  caller: composeToolCallers([
    async function consent(call, next) {
      await consentGiven.promise;
      return next(call);
    },
  ]),
});
const controller = new AbortController();
const pending = dispatcher.dispatch(
  { id: 'call_1', name: 'search', arguments: '{"q":"x"}' },
  { signal: controller.signal },
);
controller.abort(); // cancelled while the consent layer holds the call
consentGiven.resolve();
console.log((await pending).status); // 'cancelled'
console.log(search.callCount); // 0: the handler never started
// #endregion cancelled-in-layer
