// Loaded inside a worker thread by the pool: the handler of the stdlib `sha256` tool (and its
// inline twin on the main thread).
import { createHash } from 'node:crypto';

/** Hex SHA-256 of `text`, re-hashed `rounds` times (each round hashes the previous hex digest). */
export function sha256Digest(args: { text: string; rounds?: number }): {
  digest: string;
  rounds: number;
} {
  const rounds = args.rounds ?? 1;
  let digest = createHash('sha256').update(args.text).digest('hex');
  for (let round = 1; round < rounds; round += 1) {
    digest = createHash('sha256').update(digest).digest('hex');
  }
  return { digest, rounds };
}
