const FLUSH_BYTES = 64 * 1024;

/**
 * Gathers many small writes into few large ones: what is written goes out once 64 KiB have
 * gathered, at the next turn of the event loop (so output never waits behind slow input), or on
 * `flush()`. Standard output to a file or pipe is written synchronously on Linux, one system call
 * per write, so a line per call would cost more than the call.
 */
export class BufferedOutput {
  private pending: string[] = [];
  private size = 0;
  private scheduled = false;

  constructor(private readonly stream: NodeJS.WritableStream) {}

  write(text: string): void {
    this.pending.push(text);
    this.size += text.length;
    if (this.size >= FLUSH_BYTES) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.flush();
      });
    }
  }

  /** Writes everything gathered so far. */
  flush(): void {
    if (this.size === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    this.size = 0;
    this.stream.write(text);
  }
}
