import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createJsonlWriter, MAX_CHARS_PER_WRITE } from '../../src/actors/jsonl-writer.js';
import { tempDir } from '../support/temp-dir.js';

const tempFile = () => join(tempDir('switchyard-jsonl-'), 'log.jsonl');
const lineCount = (path: string) => readFileSync(path, 'utf8').split('\n').length - 1;

describe('the JSONL writer commits a turn at a time', () => {
  it('writes the lines appended during one turn together, once the turn ends', async () => {
    const path = tempFile();
    const writer = createJsonlWriter(path);
    const first = writer.append({ n: 0 });
    const second = writer.appendLine('{"n":1}');
    expect(lineCount(path)).toBe(0);
    await Promise.all([first, second]);
    expect(readFileSync(path, 'utf8')).toBe('{"n":0}\n{"n":1}\n');
    await writer.close();
  });

  it('resolves appends that are awaited one by one, each once written', async () => {
    const path = tempFile();
    const writer = createJsonlWriter(path);
    for (let n = 0; n < 3; n += 1) {
      await writer.append({ n });
      expect(lineCount(path)).toBe(n + 1);
    }
    await writer.close();
  });

  it('cuts a long burst into one write per MAX_CHARS_PER_WRITE of text', async () => {
    const path = tempFile();
    const writer = createJsonlWriter(path);
    const line = 'x'.repeat(1023); // 1 KiB with its newline
    const perWrite = MAX_CHARS_PER_WRITE / 1024;
    const writes = Array.from({ length: perWrite + 1 }, () => writer.appendLine(line));
    // A group's lines share one write (one promise); the line past the limit starts the next.
    expect(new Set(writes.slice(0, perWrite)).size).toBe(1);
    expect(writes[perWrite]).not.toBe(writes[0]);
    await writes[0];
    expect(lineCount(path)).toBeGreaterThanOrEqual(perWrite);
    await Promise.all(writes);
    expect(lineCount(path)).toBe(perWrite + 1);
    await writer.close();
  });

  it('keeps every byte in order while the group of a burst grows past its first buffer', async () => {
    const path = tempFile();
    const writer = createJsonlWriter(path);
    // ~300 KiB of distinct lines, some multi-byte: the group's buffer doubles several times.
    const lines = Array.from(
      { length: 3000 },
      (_, n) => `{"n":${n},"text":"${'é✓'.repeat(n % 40)}"}`,
    );
    const writes = lines.map((line) => writer.appendLine(line));
    expect(new Set(writes).size).toBe(1);
    await Promise.all(writes);
    expect(readFileSync(path, 'utf8')).toBe(`${lines.join('\n')}\n`);
    // The next burst starts in a buffer of the size the last one reached; a lone line after it.
    await Promise.all(lines.map((line) => writer.appendLine(line)));
    await writer.appendLine('{"n":"last"}');
    expect(readFileSync(path, 'utf8')).toBe(`${[...lines, ...lines, '{"n":"last"}'].join('\n')}\n`);
    await writer.close();
  });

  it('writes what the current turn appended when closed', async () => {
    const path = tempFile();
    const writer = createJsonlWriter(path);
    const written = writer.append({ n: 'last' });
    await writer.close();
    await written;
    expect(readFileSync(path, 'utf8')).toBe('{"n":"last"}\n');
  });

  it('copies encoded lines at once, so their buffer may be reused', async () => {
    const path = tempFile();
    const writer = createJsonlWriter(path);
    const scratch = Buffer.from('{"n":"é"}');
    const first = writer.appendBytes(scratch);
    scratch.write('{"n":"x"}');
    const second = writer.appendBytes(scratch.subarray(0, 9));
    const third = writer.appendLine('{"n":"✓😀"}');
    await Promise.all([first, second, third]);
    expect(readFileSync(path, 'utf8')).toBe('{"n":"é"}\n{"n":"x"}\n{"n":"✓😀"}\n');
    await writer.close();
  });

  it('writes a line longer than a group whole, after the lines before it', async () => {
    const path = tempFile();
    const writer = createJsonlWriter(path);
    const long = '✓'.repeat(MAX_CHARS_PER_WRITE);
    const writes = [writer.appendLine('{"n":0}'), writer.appendLine(long)];
    writes.push(writer.appendLine('{"n":2}'));
    await Promise.all(writes);
    expect(readFileSync(path, 'utf8')).toBe(`{"n":0}\n${long}\n{"n":2}\n`);
    await writer.close();
  });

  it('gathers the lines of the turns that pass while a write is in flight into one write', async () => {
    const path = tempFile();
    const writer = createJsonlWriter(path);
    // A large first write stays in flight for many turns of the event loop.
    const first = writer.appendLine('x'.repeat(32 * 1024 * 1024));
    let firstWritten = false;
    void first.then(() => {
      firstWritten = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    const during: Promise<void>[] = [];
    // Lines far from filling a group (which goes out once full, in flight or not).
    while (!firstWritten && during.length < 100) {
      during.push(writer.appendLine(`{"n":${during.length}}`));
      await new Promise((resolve) => setImmediate(resolve));
    }
    // One line per turn, yet one group (one promise, one write) for all of them.
    expect(during.length).toBeGreaterThan(1);
    expect(new Set(during).size).toBe(1);
    await Promise.all(during);
    const lines = readFileSync(path, 'utf8').split('\n').slice(1, -1);
    expect(lines).toEqual(during.map((_, n) => `{"n":${n}}`));
    await writer.close();
  });
});
