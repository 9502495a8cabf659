import { verifyReceipts } from '../middleware/receipts/verify-receipts.js';

/** `switchyard verify <receipts.jsonl>`: checks a receipt log's hash chain; exit 0 when intact, 1 when broken. */
const receipts = (count: number) => `${count} receipt${count === 1 ? '' : 's'}`;

export function runVerify(path: string, out: NodeJS.WritableStream): number {
  const verification = verifyReceipts(path);
  const tail = verification.incompleteTail
    ? ' (the last line was cut off by a crash and is not counted)'
    : '';
  if (verification.ok) {
    out.write(`${path}: ${receipts(verification.verifiedLines)}, chain intact${tail}\n`);
    return 0;
  }
  const broken = verification.firstBroken;
  out.write(
    `${path}: broken at line ${broken?.line}: ${broken?.reason}; ${receipts(verification.verifiedLines)} before it intact${tail}\n`,
  );
  return 1;
}
