import { manualClock } from '../../../test/support/manual-clock.js';
import type { BenchCase } from '../src/bench-case.js';
import type { BenchClock } from '../src/bench-clock.js';

const WEATHER = {
  name: 'get_weather',
  description: 'Current weather in a city',
  inputSchema: {
    type: 'object',
    properties: {
      city: { type: 'string' },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    },
    required: ['city'],
  },
};

/** Five one-call cases on one tool; the expected city differs per case. */
export const CASES: readonly BenchCase[] = ['Paris', 'Oslo', 'Lima', 'Rome', 'Kyiv'].map(
  (city, index) => ({
    id: `case_${index}`,
    intent: `What is the weather in ${city}, in celsius?`,
    tools: [WEATHER],
    expected: [{ name: 'get_weather', arguments: { city: [city], unit: ['celsius', ''] } }],
  }),
);

/** The arguments case `index` expects. */
export const right = (index: number) => ({
  city: CASES[index]!.expected[0]!.arguments.city![0] as string,
});

/**
 * A clock the test moves by hand: a scripted latency is added when the server receives a request,
 * before the client reads the reply. The budget timer never fires: the layer calls a hop whose
 * measured time exceeds the budget a timeout all the same.
 */
export function scriptedClock(): BenchClock & { advance(ms: number): void } {
  const clock = manualClock();
  return {
    now: clock.now,
    timer: () => () => {},
    sleep: async () => {},
    virtual: true,
    advance: clock.advance,
  };
}

/** Moves `clock` by each latency as each request arrives (concurrency 1: requests come in order). */
export async function playLatencies(
  server: { nextRequest(): Promise<unknown> },
  clock: { advance(ms: number): void },
  latencies: readonly number[],
): Promise<void> {
  for (const latency of latencies) {
    await server.nextRequest();
    clock.advance(latency);
  }
}
