/**
 * A safe arithmetic evaluator: numbers, `+ - * / % ^` (also `**`), unary signs, parentheses, the
 * constants `pi` and `e`, and a fixed set of functions. No `eval`, no property access, no names
 * beyond the fixed ones; nesting is capped so no input can exhaust the stack.
 */

const FUNCTIONS: Readonly<Record<string, (...args: number[]) => number>> = {
  abs: Math.abs,
  sqrt: Math.sqrt,
  cbrt: Math.cbrt,
  floor: Math.floor,
  ceil: Math.ceil,
  round: Math.round,
  trunc: Math.trunc,
  sign: Math.sign,
  exp: Math.exp,
  ln: Math.log,
  log: Math.log10,
  log2: Math.log2,
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  asin: Math.asin,
  acos: Math.acos,
  atan: Math.atan,
  min: Math.min,
  max: Math.max,
  pow: Math.pow,
  hypot: Math.hypot,
};

const CONSTANTS: Readonly<Record<string, number>> = { pi: Math.PI, e: Math.E };
const MAX_DEPTH = 64;
const TOKEN =
  /\s*(?:(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|([A-Za-z_]\w*)|(\*\*|[-+*/%^(),]))/y;

type Token =
  | { kind: 'number'; value: number }
  | { kind: 'name'; value: string }
  | { kind: 'op'; value: string };

function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < expression.length) {
    if (expression.slice(TOKEN.lastIndex).trim() === '') break;
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(expression);
    if (match === null)
      throw new Error(
        `unexpected character at ${at}: ${JSON.stringify(expression.slice(at).trim()[0])}`,
      );
    const [, number, name, op] = match;
    if (number !== undefined) tokens.push({ kind: 'number', value: Number(number) });
    else if (name !== undefined) tokens.push({ kind: 'name', value: name.toLowerCase() });
    else tokens.push({ kind: 'op', value: op === '**' ? '^' : (op as string) });
  }
  return tokens;
}

/** Evaluates `expression`; throws a plain `Error` (a tool error) for bad syntax, unknown names, division by zero or a non-finite result. */
export function evaluateArithmetic(expression: string): number {
  const tokens = tokenize(expression);
  let position = 0;
  const peek = (): Token | undefined => tokens[position];
  const isOp = (value: string): boolean => {
    const token = peek();
    return token?.kind === 'op' && token.value === value;
  };
  const expect = (value: string): void => {
    if (!isOp(value)) throw new Error(`expected "${value}" at token ${position + 1}`);
    position += 1;
  };
  const checkDepth = (depth: number): void => {
    if (depth > MAX_DEPTH) throw new Error(`expression nested deeper than ${MAX_DEPTH}`);
  };

  // Precedence climbing: sum → product → power (right-assoc) → unary → primary.
  const sum = (depth: number): number => {
    checkDepth(depth);
    let value = product(depth);
    while (isOp('+') || isOp('-')) {
      const op = (tokens[position++] as Token).value;
      const right = product(depth);
      value = op === '+' ? value + right : value - right;
    }
    return value;
  };
  const product = (depth: number): number => {
    let value = unary(depth);
    while (isOp('*') || isOp('/') || isOp('%')) {
      const op = (tokens[position++] as Token).value;
      const right = unary(depth);
      if ((op === '/' || op === '%') && right === 0) throw new Error('division by zero');
      value = op === '*' ? value * right : op === '/' ? value / right : value % right;
    }
    return value;
  };
  const unary = (depth: number): number => {
    checkDepth(depth);
    if (isOp('-') || isOp('+')) {
      const negative = (tokens[position++] as Token).value === '-';
      const value = unary(depth + 1);
      return negative ? -value : value;
    }
    return power(depth);
  };
  const power = (depth: number): number => {
    const base = primary(depth);
    if (!isOp('^')) return base;
    position += 1;
    return base ** unary(depth + 1);
  };
  const primary = (depth: number): number => {
    const token = peek();
    if (token === undefined) throw new Error('unexpected end of expression');
    position += 1;
    if (token.kind === 'number') return token.value;
    if (token.kind === 'op') {
      if (token.value !== '(') throw new Error(`unexpected "${token.value}"`);
      const value = sum(depth + 1);
      expect(')');
      return value;
    }
    if (Object.hasOwn(CONSTANTS, token.value)) return CONSTANTS[token.value] as number;
    const fn = Object.hasOwn(FUNCTIONS, token.value) ? FUNCTIONS[token.value] : undefined;
    if (fn === undefined) throw new Error(`unknown name "${token.value}"`);
    expect('(');
    const args: number[] = [];
    if (!isOp(')')) {
      args.push(sum(depth + 1));
      while (isOp(',')) {
        position += 1;
        args.push(sum(depth + 1));
      }
    }
    expect(')');
    return fn(...args);
  };

  const value = sum(0);
  if (position < tokens.length)
    throw new Error(`unexpected "${(tokens[position] as Token).value}"`);
  if (!Number.isFinite(value)) throw new Error('the result is not a finite number');
  return value;
}
