/**
 * `producer | tail -5` keeps only what the filter lets through: the producer's full output is
 * gone, and recovering it means running a slow command again. This rewrites such a pipeline to
 * `producer | tee '<capture>' 2>/dev/null | tail -5`: the model sees the same filtered output and
 * can read the producer's whole output from the capture file. Deliberately conservative: anything
 * it cannot read with certainty is left alone.
 */

// Filters that read their whole input before they finish; `head`, `grep -q/-m` stop early.
const CONSUME_ALL = new Set(['tail', 'wc', 'grep', 'egrep', 'fgrep', 'sort', 'uniq', 'cut', 'tr']);
const EARLY_GREP_LONG = ['--quiet', '--silent', '--max-count'];

/** A grep option that stops reading early: `-q`, `-m N` (also bundled, `-qi`), or their long forms. */
function stopsEarly(word: string): boolean {
  if (word.startsWith('--'))
    return EARLY_GREP_LONG.some((flag) => word === flag || word.startsWith(`${flag}=`));
  return word.startsWith('-') && (word.includes('q') || word.includes('m'));
}
// Command substitution, subshells, groups, redirections, sequencing, background jobs, newlines.
const UNSAFE = new Set(['$', '`', '(', ')', '{', '}', '<', '>', ';', '&', '\n', '\r', '\\']);

/** The pipeline's stages split on unquoted `|`, or null when the text holds anything unsafe. */
function stages(command: string): string[] | null {
  const parts: string[] = [];
  let current = '';
  let quote: "'" | '"' | null = null;
  for (let index = 0; index < command.length; index += 1) {
    const character = command[index] as string;
    if (quote !== null) {
      // Inside double quotes `$` and backquotes still expand.
      if (quote === '"' && (character === '$' || character === '`' || character === '\\'))
        return null;
      if (character === quote) quote = null;
      current += character;
      continue;
    }
    if (character === "'" || character === '"') quote = character;
    else if (UNSAFE.has(character)) return null;
    else if (character === '|') {
      if (command[index + 1] === '|') return null;
      parts.push(current.trim());
      current = '';
      continue;
    }
    current += character;
  }
  if (quote !== null) return null;
  parts.push(current.trim());
  return parts.some((part) => part === '') ? null : parts;
}

function consumesAll(stage: string): boolean {
  const words = stage.split(/\s+/);
  const program = words[0] ?? '';
  if (!CONSUME_ALL.has(program)) return false;
  if (program.endsWith('grep')) return !words.slice(1).some(stopsEarly);
  return true;
}

/** `path` as one single-quoted shell word. */
function shellQuote(path: string): string {
  return `'${path.replaceAll("'", `'\\''`)}'`;
}

/**
 * The pipeline rewritten to tee its producer's output to `capturePath`, or null when `command` is
 * not a plain `producer | filter …` pipeline whose filters all read their whole input.
 */
export function preserveFilteredOutput(command: string, capturePath: string): string | null {
  const parts = stages(command);
  if (parts === null || parts.length < 2) return null;
  const [producer, ...filters] = parts;
  if (producer === undefined || !filters.every(consumesAll)) return null;
  return [producer, `tee ${shellQuote(capturePath)} 2>/dev/null`, ...filters].join(' | ');
}
