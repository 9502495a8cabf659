const UNSAFE = /[^A-Za-z0-9_-]/g;
const MAX_LENGTH = 64;

/**
 * The tool's name as providers accept it for a JSON-schema format or forced tool
 * (`^[A-Za-z0-9_-]{1,64}$`): MCP-style names (`server.tool`) get `_` for each other character.
 */
export function binderToolName(tool: string): string {
  const safe = tool.replace(UNSAFE, '_').slice(0, MAX_LENGTH);
  return safe === '' ? 'arguments' : safe;
}
