/** Turns anything thrown into a message string without throwing itself. */
export function errorMessage(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message || error.name);
    if (typeof error === 'string') return error;
    return JSON.stringify(error) ?? String(error);
  } catch {
    // A thrown value whose getters, `toJSON` or `toString` throw in turn.
    try {
      return String(error);
    } catch {
      return 'an error that cannot be described';
    }
  }
}
