/**
 * The model-facing texts of retractions. Each says what went wrong, that nothing ran, and what
 * to send instead, so the next turn can repair the call rather than repeat it.
 */

/** Above this many names, the list of tools ends with an explicit "…and N more". */
const LISTED_TOOLS = 60;

/** The advertised names as a bracketed list, never silently truncated. */
export function availableTools(names: readonly string[]): string {
  if (names.length <= LISTED_TOOLS) return `[${names.join(', ')}]`;
  return `[${names.slice(0, LISTED_TOOLS).join(', ')}, …and ${names.length - LISTED_TOOLS} more]`;
}

/** A native call named a tool that was not advertised. */
export function unknownToolMessage(name: string, names: readonly string[]): string {
  if (name === '') {
    return `A tool call arrived without a tool name; nothing was run. Tool calls must be one of: ${availableTools(names)}.`;
  }
  return `Unknown tool '${name}'; nothing was run. Tool calls must be one of: ${availableTools(names)}.`;
}

/** Native arguments that JSON.parse refused. */
export function invalidJsonMessage(name: string, detail: string): string {
  return `The arguments of the call to '${name}' are not valid JSON (${detail}); the call was not run. Send the arguments again as one complete JSON object.`;
}

/** Arguments that parsed to something other than an object. */
export function notAnObjectMessage(name: string, value: unknown): string {
  return `The arguments of the call to '${name}' must be a JSON object, got ${describe(value)}; the call was not run. Send an object such as {"key": "value"}.`;
}

/** An unsafe finish reason arrived while the call was still streaming. */
export function cutOffMessage(name: string, reason: string): string {
  return `The response was cut off (finish reason '${reason}') before the arguments of the call to '${name}' were complete; the call was not run. Call the tool again; if its arguments are long, split the work into smaller calls.`;
}

/** The stream ended without a finish while the call was still streaming. */
export function incompleteMessage(name: string): string {
  return `The response ended before the arguments of the call to '${name}' were complete; the call was not run. Call the tool again with complete arguments.`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
