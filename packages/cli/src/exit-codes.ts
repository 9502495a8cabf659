/** The CLI's exit codes: every command ends with one of these. */
export const EXIT = {
  /** Everything ran and every call or task succeeded. */
  ok: 0,
  /** Some calls or tasks failed (`--allow-failures` turns this into `ok`). */
  failures: 1,
  /** The command line was wrong: unknown command or option, missing or bad argument. */
  usage: 2,
  /** The input could not be read: a missing file, or lines that are not what the command takes. */
  input: 3,
  /**
   * Some task stopped at a call that may or may not have taken effect: an operator resolves it
   * (`switchyard in-doubt`), then the batch runs again. Never covered by `--allow-failures`.
   */
  inDoubt: 4,
  /** Some task waits for calls to be approved or denied (`switchyard approvals`). */
  awaitingApproval: 5,
  /** Interrupted (Ctrl-C); a batch run resumes where it stopped. */
  interrupted: 130,
} as const;
