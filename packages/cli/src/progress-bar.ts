const WIDTH = 24;
const FRAME_MS = 100;

/** A one-line progress display, redrawn in place on a terminal; silent on anything else. */
export class ProgressBar {
  private readonly stream: NodeJS.WritableStream | undefined;
  private lastDraw = 0;
  private drawn = false;

  /** Draws on `stream` only when `enabled` and the stream is a TTY. */
  constructor(stream: NodeJS.WritableStream, enabled: boolean) {
    const tty = (stream as { isTTY?: boolean }).isTTY === true;
    this.stream = enabled && tty ? stream : undefined;
  }

  /** Whether anything is drawn at all. */
  get active(): boolean {
    return this.stream !== undefined;
  }

  /**
   * Redraws at most every 100 ms (always when `force`). `total` is undefined while it is unknown
   * (a streamed file); `unit` names what is counted.
   */
  update(
    done: number,
    total: number | undefined,
    detail: string,
    options: { unit?: string; force?: boolean; now?: number } = {},
  ): void {
    const now = options.now ?? Date.now();
    if (this.stream === undefined) return;
    if (options.force !== true && now - this.lastDraw < FRAME_MS) return;
    this.lastDraw = now;
    const bar =
      total === undefined || total === 0
        ? ''
        : `[${'#'.repeat(Math.round((Math.min(done, total) / total) * WIDTH)).padEnd(WIDTH, '.')}] `;
    const counts = total === undefined ? `${done}` : `${done}/${total}`;
    this.stream.write(`\r${bar}${counts} ${options.unit ?? 'turns'}  ${detail}\u001b[K`);
    this.drawn = true;
  }

  /** Clears the line so what follows starts clean. */
  done(): void {
    if (this.stream !== undefined && this.drawn) this.stream.write('\r\u001b[K');
    this.drawn = false;
  }
}
