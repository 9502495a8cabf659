/**
 * The model-facing texts of retractions. Each says what went wrong, that nothing ran, and what
 * to send instead, so the next turn can repair the call rather than repeat it.
 */

/** An unsafe finish reason arrived while the call was still streaming. */
export function cutOffMessage(name: string, reason: string): string {
  return `The response was cut off (finish reason '${reason}') before the arguments of the call to '${name}' were complete; the call was not run. Call the tool again; if its arguments are long, split the work into smaller calls.`;
}

/** The stream ended without a finish while the call was still streaming. */
export function incompleteMessage(name: string): string {
  return `The response ended before the arguments of the call to '${name}' were complete; the call was not run. Call the tool again with complete arguments.`;
}
