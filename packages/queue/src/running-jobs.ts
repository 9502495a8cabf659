/** What a cut-off job's race rejects with: the worker's grace limit passed while it ran. */
export const CUT_OFF: unique symbol = Symbol('cut off at the grace limit');

/**
 * The jobs a queue worker is running, so that a stopping worker can cut off those still running
 * at its grace limit. `race` settles with the job's own work unless `cutOffAll` comes first; it
 * then rejects with `CUT_OFF` and the caller hands the job on (back to the wait list, or failed).
 */
export class RunningJobs {
  /** Rejects the race of each running job, by job id. */
  private readonly cutters = new Map<string, () => void>();

  /** Settles with `work`, or rejects with `CUT_OFF` when the job is cut off first. */
  async race<T>(jobId: string, work: Promise<T>): Promise<T> {
    const cutOff = new Promise<never>((_, reject) => {
      this.cutters.set(jobId, () => reject(CUT_OFF));
    });
    try {
      return await Promise.race([work, cutOff]);
    } catch (error) {
      // The cut-off work may still fail later, once its handler sees the abort.
      if (error === CUT_OFF) work.catch(ignore);
      throw error;
    } finally {
      this.cutters.delete(jobId);
    }
  }

  /** Cuts off every running job. */
  cutOffAll(): void {
    for (const cut of this.cutters.values()) cut();
  }
}

function ignore(): void {}
