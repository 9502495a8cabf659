// Code in the docs comes from type-checked files. A TypeScript or JavaScript block in a markdown
// file is preceded by a marker naming its source:
//
//   <!-- snippet: examples/quick-start.ts#quick-start -->
//   ```ts
//   …the lines between `// #region quick-start` and `// #endregion quick-start`…
//   ```
//
// `npx tsx scripts/doc-snippets.ts` rewrites every marked block from its source;
// test/docs.test.ts fails on a block without a marker, a block that differs from its source, and a
// relative link that points nowhere.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPOSITORY = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const CODE_LANGUAGES = new Set(['ts', 'typescript', 'js', 'javascript', 'mjs', 'tsx']);
const MARKER = /^<!-- snippet: ([^#\s]+)#([\w-]+) -->$/;

/** Every markdown file users read: the READMEs, the guides, the packages' READMEs. */
export function markdownFiles(): string[] {
  const inFolder = (folder: string) =>
    existsSync(join(REPOSITORY, folder))
      ? readdirSync(join(REPOSITORY, folder), { recursive: true, encoding: 'utf8' })
          .filter((file) => file.endsWith('.md'))
          .map((file) => join(folder, file))
      : [];
  const packages = readdirSync(join(REPOSITORY, 'packages'))
    .map((name) => join('packages', name, 'README.md'))
    .filter((file) => existsSync(join(REPOSITORY, file)));
  return ['README.md', 'CONTRIBUTING.md', 'bench/README.md', ...inFolder('docs'), ...packages];
}

/** A fenced code block of a markdown file. */
export interface CodeBlock {
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly language: string;
  readonly code: string;
  /** Lines between the fences. */
  readonly lineCount: number;
  /** The snippet marker on the line before the fence, if any. */
  readonly source?: { readonly file: string; readonly region: string };
}

/** The fenced blocks of `file` (a path from the repository's root), in order. */
export function codeBlocks(file: string): CodeBlock[] {
  const lines = readFileSync(join(REPOSITORY, file), 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const fence = /^(\s*)```(\w*)/.exec(lines[index] ?? '');
    if (fence === null) continue;
    const end = lines.findIndex((line, at) => at > index && line.trim() === '```');
    if (end === -1) break;
    const marker = MARKER.exec((lines[index - 1] ?? '').trim());
    blocks.push({
      file,
      line: index + 1,
      language: fence[2] ?? '',
      code: lines.slice(index + 1, end).join('\n'),
      lineCount: end - index - 1,
      ...(marker === null ? {} : { source: { file: marker[1] ?? '', region: marker[2] ?? '' } }),
    });
    index = end;
  }
  return blocks;
}

/** Whether a block is code that must come from a type-checked file. */
export function isCode(block: CodeBlock): boolean {
  return CODE_LANGUAGES.has(block.language);
}

/**
 * The lines between `// #region <name>` and `// #endregion <name>` of a source file, without
 * their common indentation.
 * @throws Error when the file or the region does not exist.
 */
export function region(file: string, name: string): string {
  const lines = readFileSync(join(REPOSITORY, file), 'utf8').split('\n');
  const start = lines.findIndex((line) => line.trim() === `// #region ${name}`);
  const end = lines.findIndex((line, at) => at > start && line.trim() === `// #endregion ${name}`);
  if (start === -1 || end === -1) throw new Error(`${file} has no region "${name}"`);
  const body = lines.slice(start + 1, end).filter((line) => !/^\s*\/\/ #(end)?region /.test(line));
  const indent = Math.min(
    ...body.filter((line) => line.trim() !== '').map((line) => /^\s*/.exec(line)?.[0].length ?? 0),
  );
  return body.map((line) => line.slice(indent)).join('\n');
}

/** Relative links (`[text](path)`) of a markdown file whose target does not exist. */
export function brokenLinks(file: string): string[] {
  const text = readFileSync(join(REPOSITORY, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  const broken: string[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (target === undefined || /^([a-z]+:|#)/.test(target)) continue;
    const path = resolve(join(REPOSITORY, dirname(file)), target.split('#')[0] ?? '');
    if (!existsSync(path)) broken.push(`${file}: ${target}`);
  }
  return broken;
}

/** Rewrites every marked block of every markdown file from its source; returns the files changed. */
export function syncSnippets(): string[] {
  const changed: string[] = [];
  for (const file of markdownFiles()) {
    const path = join(REPOSITORY, file);
    const lines = readFileSync(path, 'utf8').split('\n');
    // From the end, so that earlier blocks keep their line numbers.
    for (const block of codeBlocks(file).reverse()) {
      if (block.source === undefined) continue;
      const code = region(block.source.file, block.source.region).split('\n');
      lines.splice(block.line, block.lineCount, ...code);
    }
    const text = lines.join('\n');
    if (text !== readFileSync(path, 'utf8')) {
      writeFileSync(path, text);
      changed.push(relative(REPOSITORY, path));
    }
  }
  return changed;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const changed = syncSnippets();
  console.log(
    changed.length === 0 ? 'every snippet is up to date' : `rewrote ${changed.join(', ')}`,
  );
}
