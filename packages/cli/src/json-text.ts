import { writeJson } from 'switchyard/tools';

/**
 * The JSON text of what the CLI prints: JSON.stringify's, or, for a value it cannot write (a tool
 * result nested deeper than the call stack, a BigInt, a cycle), `writeJson`'s, which writes any
 * depth and puts a stand-in (`"[bigint 10]"`, `"[cycle]"`) where JSON has no word. A result the
 * tool returned never stops the run that prints it.
 */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return writeJson(value, { notes: [] });
  }
}
