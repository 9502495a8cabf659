// Loaded inside a worker thread by the pool: the handler of the `sha256` example tool.
import { sha256Rounds } from './sha256-rounds.js';

export function sha256(args: { text: string; rounds?: number }): string {
  return sha256Rounds(args.text, args.rounds ?? 1);
}
