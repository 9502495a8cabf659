import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { extname } from 'node:path';

/** The parts of web-tree-sitter's syntax node the outline reads. */
export interface SyntaxNode {
  readonly type: string;
  readonly text: string;
  readonly startPosition: { readonly row: number };
  readonly endPosition: { readonly row: number };
  readonly namedChildren: readonly (SyntaxNode | null)[];
  childForFieldName(field: string): SyntaxNode | null;
}

interface Tree {
  readonly rootNode: SyntaxNode;
  delete(): void;
}

interface Parser {
  setLanguage(language: unknown): void;
  parse(text: string): Tree | null;
  delete(): void;
}

interface TreeSitterModule {
  readonly Parser: { init(): Promise<void>; new (): Parser };
  readonly Language: { load(bytes: Uint8Array): Promise<unknown> };
}

const PACKAGE = '@vscode/tree-sitter-wasm';

const GRAMMARS: Readonly<Record<string, string>> = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'tsx',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascript',
  '.py': 'python',
  '.go': 'go',
  '.rs': 'rust',
  '.java': 'java',
  '.rb': 'ruby',
  '.cs': 'c-sharp',
  '.php': 'php',
  '.sh': 'bash',
  '.bash': 'bash',
  '.c': 'cpp',
  '.h': 'cpp',
  '.cc': 'cpp',
  '.cpp': 'cpp',
  '.hpp': 'cpp',
};

let loading: Promise<TreeSitterModule | null> | undefined;
const languages = new Map<string, Promise<unknown>>();

function loadModule(): Promise<TreeSitterModule | null> {
  loading ??= import(PACKAGE).then(
    async (imported: { default?: TreeSitterModule } & Partial<TreeSitterModule>) => {
      const module = (imported.default ?? imported) as TreeSitterModule;
      await module.Parser.init();
      return module;
    },
    // Not installed: outlines fall back to keyword lines.
    () => null,
  );
  return loading;
}

/** The grammar name for a file path (by extension), or undefined when none is bundled. */
export function grammarFor(path: string): string | undefined {
  const extension = extname(path).toLowerCase();
  return Object.hasOwn(GRAMMARS, extension) ? GRAMMARS[extension] : undefined;
}

/**
 * Parses `text` with the bundled WASM grammar and hands the tree to `visit` (the tree is freed
 * afterwards). Returns undefined when `@vscode/tree-sitter-wasm` is not installed.
 */
export async function withSyntaxTree<T>(
  grammar: string,
  text: string,
  visit: (root: SyntaxNode) => T,
): Promise<T | undefined> {
  const module = await loadModule();
  if (module === null) return undefined;
  let language = languages.get(grammar);
  if (language === undefined) {
    const file = createRequire(import.meta.url).resolve(
      `${PACKAGE}/wasm/tree-sitter-${grammar}.wasm`,
    );
    language = readFile(file).then((bytes) => module.Language.load(bytes));
    languages.set(grammar, language);
  }
  const parser = new module.Parser();
  try {
    parser.setLanguage(await language);
    const tree = parser.parse(text);
    if (tree === null) return undefined;
    try {
      return visit(tree.rootNode);
    } finally {
      tree.delete();
    }
  } finally {
    parser.delete();
  }
}
