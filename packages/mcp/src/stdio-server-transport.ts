import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { BoundedLineReader, type OversizedLine } from './bounded-line-reader.js';
import { readInboundLine, tooLargeAnswer } from './json-rpc-inbound.js';

/** Options of a `StdioServerTransport`. */
export interface StdioServerTransportOptions {
  readonly stdin: Readable;
  readonly stdout: Writable;
  /** The longest line read as a message, in bytes; a longer one is answered with an error. */
  readonly maxMessageBytes: number;
  /** The SDK's JSON-RPC message check (`parseJSONRPCMessage`): throws on an invalid message. */
  readonly parseMessage: (value: unknown) => JSONRPCMessage;
}

/**
 * The server side of the stdio transport, newline-delimited JSON-RPC over a pair of streams.
 * Unlike the SDK's reader, which throws away its buffer and closes the connection on a line past
 * its limit and drops lines it cannot validate, every line gets an answer here and the
 * connection lives on: a line past `maxMessageBytes` is streamed through in constant memory and
 * answered with an invalid-request error under its own id once it ends; text that is not JSON
 * gets a parse error; JSON that is not a JSON-RPC message gets an invalid-request error.
 */
export class StdioServerTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T) => void) | undefined;
  readonly #options: StdioServerTransportOptions;
  readonly #lines: BoundedLineReader;
  #closed = false;

  constructor(options: StdioServerTransportOptions) {
    this.#options = options;
    this.#lines = new BoundedLineReader({
      maxLineBytes: options.maxMessageBytes,
      onLine: (line) => this.#onLine(line),
      onOversized: (line) => this.#onOversized(line),
    });
  }

  async start(): Promise<void> {
    const { stdin, stdout } = this.#options;
    stdin.on('data', this.#onData);
    stdin.on('error', this.#onError);
    stdin.on('end', this.#onEnd);
    stdin.on('close', this.#onEnd);
    stdout.on('error', this.#onWriteError);
    if (stdin.readableEnded || stdin.destroyed) setImmediate(this.#onEnd);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.#write(message);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const { stdin, stdout } = this.#options;
    stdin.off('data', this.#onData);
    stdin.off('error', this.#onError);
    stdin.off('end', this.#onEnd);
    stdin.off('close', this.#onEnd);
    // Late write failures (the client went away) are expected now; the listener stays to swallow them.
    stdout.off('error', this.#onWriteError);
    stdout.on('error', ignore);
    if (stdin.listenerCount('data') === 0) stdin.pause();
    this.#lines.clear();
    this.onclose?.();
  }

  readonly #onData = (chunk: Buffer | string): void => {
    this.#lines.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  };

  readonly #onError = (error: Error): void => {
    this.onerror?.(error);
  };

  readonly #onEnd = (): void => {
    this.close().catch(ignore);
  };

  readonly #onWriteError = (error: Error): void => {
    this.onerror?.(error);
    this.close().catch(ignore);
  };

  #onLine(line: Buffer): void {
    const inbound = readInboundLine(line, this.#options.parseMessage);
    if (inbound === undefined) return;
    if ('answer' in inbound) {
      this.#answer(inbound.answer);
      return;
    }
    try {
      this.onmessage?.(inbound.message);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #onOversized(line: OversizedLine): void {
    this.#answer(tooLargeAnswer(line.id, line.bytes, this.#options.maxMessageBytes));
  }

  #answer(answer: object): void {
    this.#write(answer).catch((error: unknown) =>
      this.onerror?.(error instanceof Error ? error : new Error(String(error))),
    );
  }

  #write(message: object): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('the stdio transport is closed'));
    const stdout = this.#options.stdout;
    const text = `${JSON.stringify(message)}\n`;
    return new Promise((resolve, reject) => {
      const onError = (error: Error) => {
        stdout.off('drain', onDrain);
        reject(error);
      };
      const onDrain = () => {
        stdout.off('error', onError);
        resolve();
      };
      stdout.once('error', onError);
      if (stdout.write(text)) {
        stdout.off('error', onError);
        resolve();
      } else {
        stdout.once('drain', onDrain);
      }
    });
  }
}

function ignore(): void {}
