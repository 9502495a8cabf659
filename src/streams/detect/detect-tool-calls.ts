import type { OperatorFunction } from 'rxjs';
import { rx } from '../../rxjs.js';
import type { DetectorEvent, DetectorListener, ToolCallDetector } from '../detector-events.js';
import type { ToolCallDelta } from '../tool-call-delta.js';

/**
 * An RxJS operator that runs one response's deltas through a detector. `create` receives the
 * listener to pass as `onEvent` and is called once per subscription. When the source completes
 * or fails, the detector is ended first (open candidates are settled and their events go out),
 * then the completion or error follows. Unsubscribing ends the detector silently.
 *
 * @example
 * const events$ = deltas$.pipe(
 *   detectToolCalls((onEvent) => createNativeDetector({ toolNames: registry.names(), onEvent })),
 * );
 */
export function detectToolCalls(
  create: (onEvent: DetectorListener) => ToolCallDetector,
): OperatorFunction<ToolCallDelta, DetectorEvent> {
  return (source) =>
    new (rx().Observable)<DetectorEvent>((subscriber) => {
      const detector = create((event) => subscriber.next(event));
      const subscription = source.subscribe({
        next: (delta) => detector.push(delta),
        error: (error: unknown) => {
          detector.end();
          subscriber.error(error);
        },
        complete: () => {
          detector.end();
          subscriber.complete();
        },
      });
      return () => {
        subscription.unsubscribe();
        detector.end();
      };
    });
}
