import { createHash } from 'node:crypto';

/** Hex SHA-256 of `text`, re-hashed `rounds` times (the digest of each round feeds the next). */
export function sha256Rounds(text: string, rounds: number): string {
  let digest = createHash('sha256').update(text).digest('hex');
  for (let round = 1; round < rounds; round += 1) {
    digest = createHash('sha256').update(digest).digest('hex');
  }
  return digest;
}
