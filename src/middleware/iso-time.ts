/** The last conversion: calls that finish within the same millisecond share its text. */
let lastMs = Number.NaN;
let lastText = '';

/**
 * The ISO 8601 text of a time in ms since the epoch, as `new Date(ms).toISOString()` gives it
 * (and throws for an invalid time). Audit and consent stamp every call; a burst of calls falls
 * in one millisecond, and building the Date and its text cost more than the rest of a stamp.
 */
export function isoTime(ms: number): string {
  if (ms !== lastMs) {
    lastText = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastText;
}
