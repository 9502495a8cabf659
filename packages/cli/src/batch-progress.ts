import { ProgressBar } from './progress-bar.js';
import { succeeded, type TaskOutcome } from './task-outcome.js';

/**
 * A batch's progress on stderr: on a terminal one line redrawn in place (done, failed, rate, ETA,
 * tokens); elsewhere one plain line per finished task. `quiet` shows nothing.
 */
export class BatchProgress {
  private readonly bar: ProgressBar;
  private done = 0;
  private failed = 0;
  private tokens = 0;

  constructor(
    private readonly err: NodeJS.WritableStream,
    private readonly total: number,
    private readonly quiet: boolean,
    private readonly started: number = Date.now(),
  ) {
    this.bar = new ProgressBar(err, !quiet);
  }

  /** Counts a finished task and shows it. */
  finished(outcome: TaskOutcome, now: number = Date.now()): void {
    this.done += 1;
    if (!succeeded(outcome)) this.failed += 1;
    this.tokens += outcome.usage.inputTokens + outcome.usage.outputTokens;
    if (this.quiet) return;
    if (this.bar.active) {
      this.draw(now, this.done === this.total);
      return;
    }
    const error = outcome.error === null ? '' : `: ${outcome.error}`;
    const resumed = outcome.resumed === null ? '' : ' (resumed)';
    const cost =
      outcome.toolCost === undefined ? '' : ` ($${outcome.toolCost.totalUsd.toFixed(4)})`;
    this.err.write(
      `[${this.done}/${this.total}] ${outcome.id} ${outcome.status}${error}${resumed} · ${outcome.turns} turns · ${outcome.toolCalls} tool calls${cost} · ${(outcome.latencyMs / 1000).toFixed(2)} s\n`,
    );
  }

  /** Clears the bar so the summary starts clean. */
  end(): void {
    this.bar.done();
  }

  private draw(now: number, force: boolean): void {
    const elapsed = Math.max(1, now - this.started) / 1000;
    const rate = this.done / elapsed;
    const eta = rate > 0 ? (this.total - this.done) / rate : 0;
    const detail = `${this.failed} failed · ${rate.toFixed(1)} tasks/s · ETA ${eta.toFixed(0)} s · ${this.tokens} tokens`;
    this.bar.update(this.done, this.total, detail, { unit: 'tasks', force, now });
  }
}
