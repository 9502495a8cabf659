import type { JsonObject } from 'switchyard';
import type { BinderFn } from 'switchyard/middleware';
import type { BenchClock } from './bench-clock.js';

/** What a simulated binder knows: per binder prompt, the case it belongs to and its expected arguments. */
export type SimulatedAnswers = ReadonlyMap<
  string,
  { readonly caseId: string; readonly args: JsonObject }
>;

/** The simulated binder's answer time for a case, in ms. */
export type LatencyOf = (caseId: string) => number;

/**
 * A simulated binder in process, on the benchmark's clock: it waits the drawn latency, then answers
 * the expected arguments of the case whose prompt it was given (an unknown prompt throws, read as a
 * transport error). Used under a virtual clock, where a loopback server's I/O would not hold time
 * back; on the wall clock the benchmark goes through `startSimulatedBinderServer` instead.
 */
export function simulatedBinderFn(options: {
  readonly answers: SimulatedAnswers;
  readonly latencyOf: LatencyOf;
  readonly clock: BenchClock;
}): BinderFn {
  const { answers, latencyOf, clock } = options;
  return async function simulatedBinder(request) {
    const answer = answers.get(request.prompt);
    if (answer === undefined) throw new Error('simulated binder: no answer for this prompt');
    await clock.sleep(latencyOf(answer.caseId), request.signal);
    return { data: answer.args };
  };
}
