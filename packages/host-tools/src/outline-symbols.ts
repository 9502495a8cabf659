import { compileLinearRegex } from 'switchyard/tools';
import type { SyntaxNode } from './tree-sitter-grammars.js';

/** One symbol of a file outline. Lines are 1-based. */
export interface OutlineSymbol {
  readonly name: string;
  readonly kind: string;
  readonly line: number;
  readonly end_line: number;
  /** The enclosing symbol's name, when nested. */
  readonly parent?: string;
}

// Definition node types across the bundled grammars, with the kind each one reports.
const KINDS: Readonly<Record<string, string>> = {
  class_declaration: 'class',
  abstract_class_declaration: 'class',
  class_definition: 'class',
  class_specifier: 'class',
  class: 'class',
  interface_declaration: 'interface',
  type_alias_declaration: 'type',
  type_spec: 'type',
  enum_declaration: 'enum',
  enum_item: 'enum',
  struct_item: 'struct',
  struct_specifier: 'struct',
  struct_declaration: 'struct',
  trait_item: 'trait',
  impl_item: 'impl',
  function_declaration: 'function',
  generator_function_declaration: 'function',
  function_definition: 'function',
  function_item: 'function',
  method_definition: 'method',
  method_declaration: 'method',
  method_signature: 'method',
  abstract_method_signature: 'method',
  constructor_declaration: 'method',
  method: 'method',
  singleton_method: 'method',
  internal_module: 'module',
  module: 'module',
  mod_item: 'module',
  namespace_definition: 'module',
  namespace_declaration: 'module',
  record_declaration: 'class',
};

const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function']);
const MAX_NODES = 200_000;

function symbolName(node: SyntaxNode): string | undefined {
  const named = node.childForFieldName('name') ?? node.childForFieldName('type');
  if (named !== null) return named.text;
  // C and C++ bury a function's name in its declarator chain.
  let declarator = node.childForFieldName('declarator');
  for (let depth = 0; declarator !== null && depth < 8; depth += 1) {
    const inner = declarator.childForFieldName('declarator');
    if (inner === null) return declarator.text.split('(')[0]?.trim();
    declarator = inner;
  }
  return undefined;
}

function kindOf(node: SyntaxNode): string | undefined {
  if (Object.hasOwn(KINDS, node.type)) return KINDS[node.type];
  // `const handler = () => …` is a function in all but syntax.
  if (node.type === 'variable_declarator') {
    const value = node.childForFieldName('value');
    if (value !== null && FUNCTION_VALUES.has(value.type)) return 'function';
  }
  return undefined;
}

/** The definitions in a syntax tree, in source order, walked without recursion. */
export function treeSymbols(root: SyntaxNode, limit: number): OutlineSymbol[] {
  const symbols: OutlineSymbol[] = [];
  const pending: { node: SyntaxNode; parent: string | undefined }[] = [
    { node: root, parent: undefined },
  ];
  for (
    let visited = 0;
    pending.length > 0 && symbols.length < limit && visited < MAX_NODES;
    visited += 1
  ) {
    const { node, parent } = pending.pop() as { node: SyntaxNode; parent: string | undefined };
    const kind = kindOf(node);
    const name = kind === undefined ? undefined : symbolName(node);
    if (kind !== undefined && name !== undefined && name !== '') {
      symbols.push({
        name: name.slice(0, 200),
        kind,
        line: node.startPosition.row + 1,
        end_line: node.endPosition.row + 1,
        ...(parent === undefined ? {} : { parent }),
      });
    }
    const children = node.namedChildren;
    for (let index = children.length - 1; index >= 0; index -= 1) {
      const child = children[index];
      if (child) pending.push({ node: child, parent: name ?? parent });
    }
  }
  return symbols;
}

const KEYWORD_LINE = compileLinearRegex(
  '^\\s*(?:export\\s+)?(?:default\\s+)?(?:pub\\s+)?(?:async\\s+)?(function|class|interface|type|enum|def|fn|func|struct|trait|impl|module|namespace)\\b\\s*\\*?\\s*([A-Za-z_$][\\w$]*)',
);

/** The outline without a parser: lines that start with a definition keyword. */
export function keywordSymbols(text: string, limit: number): OutlineSymbol[] {
  const symbols: OutlineSymbol[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length && symbols.length < limit; index += 1) {
    const [found] = KEYWORD_LINE.matchAll(lines[index] as string, 1);
    const [keyword, name] = found?.groups ?? [];
    if (keyword && name)
      symbols.push({ name, kind: keyword, line: index + 1, end_line: index + 1 });
  }
  return symbols;
}
