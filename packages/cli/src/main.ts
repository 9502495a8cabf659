#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { COMMANDS, findCommand } from './command-table.js';
import { EXIT } from './exit-codes.js';
import { exitCodeOf } from './report-error.js';

function usage(): string {
  const rows = COMMANDS.map((entry) => [entry.words.join(' '), entry.summary] as const);
  const width = Math.max(...rows.map(([words]) => words.length)) + 2;
  return `switchyard — dispatch the tool calls of LLM agents

Usage: switchyard <command> [options]

Commands:
${rows.map(([words, summary]) => `  ${words.padEnd(width)}${summary}`).join('\n')}

  switchyard <command> --help   a command's options
  switchyard --version          the version

Exit codes: 0 all ok · 1 some calls or tasks failed · 2 usage · 3 unreadable input ·
4 a call in doubt (switchyard in-doubt) · 5 awaiting approval (switchyard approvals)
`;
}

/** Ends the process quietly when a reader closes the pipe (`switchyard run … | head -3`). */
function endOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    settled = true;
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok);
  });
}

async function main(argv: string[]): Promise<number> {
  const [first] = argv;
  if (first === '--version' || first === '-v' || first === '-V') {
    process.stdout.write(`${cliVersion()}\n`);
    return EXIT.ok;
  }
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    (first === undefined ? process.stderr : process.stdout).write(usage());
    return first === undefined ? EXIT.usage : EXIT.ok;
  }
  const found = findCommand(argv);
  if (found === undefined) {
    process.stderr.write(`switchyard: unknown command ${JSON.stringify(first)}\n\n${usage()}`);
    return EXIT.usage;
  }
  const runCommand = await found.entry.load();
  return runCommand(found.args);
}

/** Set once the command has settled; a process that empties its event loop before is not ok. */
let settled = false;
process.once('exit', () => {
  if (settled) return;
  process.stderr.write(
    'switchyard: stopped before the command finished (a promise never settled)\n',
  );
  process.exitCode = EXIT.failures;
});
endOnClosedPipe(process.stdout);
endOnClosedPipe(process.stderr);
/**
 * Exits once standard output has taken everything: a call abandoned by Ctrl-C (a tool that
 * ignores its signal) must not keep the process alive after the command has finished.
 */
function exitWith(code: number): void {
  settled = true;
  process.exitCode = code;
  process.stdout.write('', () => process.exit(code));
}

main(process.argv.slice(2)).then(exitWith, (error: unknown) =>
  exitWith(exitCodeOf(error, process.stderr)),
);

/** The CLI package's version (its package.json is one level above both src/ and dist/). */
function cliVersion(): string {
  const manifest = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
  return (JSON.parse(manifest) as { version: string }).version;
}
