import { verifyReceipts } from 'switchyard/receipts';
import { type CommandIo, processIo } from './command-io.js';
import { type CommandSpec, commandHelp, parseCommandLine } from './command-line.js';
import { InputError, UsageError } from './errors.js';
import { EXIT } from './exit-codes.js';

const receipts = (count: number) => `${count} receipt${count === 1 ? '' : 's'}`;

/** `switchyard verify`'s command line. */
export const VERIFY_SPEC: CommandSpec = {
  name: 'verify',
  usage: '<receipts.jsonl>',
  summary:
    "Check a receipt log's hash chain: exit 0 when intact, 1 when broken, 3 when unreadable.",
  options: {},
};

/**
 * Checks a receipt log's hash chain and prints the verdict, naming the receipt schema version of
 * its lines (which says how their `args_hash` and `result_hash` were computed); returns 0 when
 * intact, 1 when broken.
 */
export function runVerify(path: string, out: NodeJS.WritableStream): number {
  const verification = verifyReceipts(path);
  const tail = verification.incompleteTail
    ? ' (the last line was cut off by a crash and is not counted)'
    : '';
  const versions = verification.schemaVersions;
  const schema =
    versions.length === 0
      ? ''
      : ` (receipt schema version${versions.length === 1 ? '' : 's'} ${versions.join(', ')})`;
  if (verification.ok) {
    out.write(`${path}: ${receipts(verification.verifiedLines)}${schema}, chain intact${tail}\n`);
    return EXIT.ok;
  }
  const broken = verification.firstBroken;
  out.write(
    `${path}: broken at line ${broken?.line}: ${broken?.reason}; ${receipts(verification.verifiedLines)} before it intact${tail}\n`,
  );
  return EXIT.failures;
}

/**
 * `switchyard verify <receipts.jsonl>`. Resolves to the exit code.
 *
 * @throws UsageError for a bad command line; InputError when the log cannot be read.
 */
export async function verifyCommand(args: string[], io: CommandIo = processIo()): Promise<number> {
  const line = parseCommandLine(VERIFY_SPEC, args);
  if (line === null) {
    io.stdout.write(commandHelp(VERIFY_SPEC));
    return EXIT.ok;
  }
  const [path, ...extra] = line.positionals;
  if (path === undefined || extra.length > 0) {
    throw new UsageError('switchyard verify takes one receipt log (a .jsonl file)');
  }
  try {
    return runVerify(path, io.stdout);
  } catch (error) {
    throw new InputError(`cannot read ${path}: ${(error as Error).message}`);
  }
}
