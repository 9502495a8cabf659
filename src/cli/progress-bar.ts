import type { WriteStream } from 'node:tty';

const WIDTH = 24;
const FRAME_MS = 100;

/** A one-line progress display on a terminal; silent when the stream is not a TTY. */
export class ProgressBar {
  private readonly stream: WriteStream | undefined;
  private lastDraw = 0;
  private drawn = false;

  constructor(stream: NodeJS.WriteStream, enabled: boolean) {
    this.stream = enabled && stream.isTTY ? (stream as WriteStream) : undefined;
  }

  /** Redraws at most every 100 ms. `total` is unknown (undefined) while the file is streamed. */
  update(done: number, total: number | undefined, detail: string, now = Date.now()): void {
    if (this.stream === undefined || now - this.lastDraw < FRAME_MS) return;
    this.lastDraw = now;
    const bar =
      total === undefined || total === 0
        ? ''
        : `[${'#'.repeat(Math.round((done / total) * WIDTH)).padEnd(WIDTH, '.')}] `;
    const counts = total === undefined ? `${done}` : `${done}/${total}`;
    this.stream.write(`\r${bar}${counts} turns  ${detail}\u001b[K`);
    this.drawn = true;
  }

  /** Clears the line so the summary starts clean. */
  done(): void {
    if (this.stream !== undefined && this.drawn) this.stream.write('\r\u001b[K');
  }
}
