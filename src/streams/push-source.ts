import { FifoQueue } from '../actors/fifo-queue.js';
import type { ProposedCall } from '../dispatch/proposed-call.js';
import { ARRIVES_LATER, type CallPuller, type CallSource } from './turn-options.js';

/**
 * A call source a producer fills one call at a time (a framework handing over each call of a
 * step). A call pushed while the turn waits for one goes to the turn at once, on the producer's
 * stack, without a promise or a microtask; calls pushed while the turn is busy queue up.
 */
export class PushSource implements CallSource {
  private readonly queued = new FifoQueue<ProposedCall>();
  /** The turn waiting for a call, if it ran dry. */
  private waiting: CallPuller | null = null;

  push(call: ProposedCall): void {
    const puller = this.waiting;
    if (puller === null) {
      this.queued.push(call);
      return;
    }
    this.waiting = null;
    puller.arrived(call);
  }

  next(puller: CallPuller): ProposedCall | typeof ARRIVES_LATER {
    if (this.queued.size > 0) return this.queued.shift()!;
    this.waiting = puller;
    return ARRIVES_LATER;
  }
}
