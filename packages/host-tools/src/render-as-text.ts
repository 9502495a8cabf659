/**
 * A tool value as plain text, for `outputFormat: 'text'`: a string as it is; an object as one
 * `key: value` line per field, a multi-line string as a YAML-style `key: |` block indented by two
 * spaces, nested objects and arrays as compact JSON; an array one item per line (`- item`).
 * Small models read this more reliably than escaped JSON (`\n` inside a file's content).
 */
export function renderAsText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((item) => `- ${inline(item)}`).join('\n');
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value)
      .filter(([, field]) => field !== undefined)
      .map(([key, field]) =>
        typeof field === 'string' && field.includes('\n')
          ? `${key}: |\n${block(field)}`
          : `${key}: ${inline(field)}`,
      )
      .join('\n');
  }
  return inline(value);
}

function inline(value: unknown): string {
  if (typeof value === 'string') return value.includes('\n') ? JSON.stringify(value) : value;
  return JSON.stringify(value) ?? String(value);
}

/** Each line indented by two spaces; a final newline is kept as the block's end. */
function block(text: string): string {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  return body
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
