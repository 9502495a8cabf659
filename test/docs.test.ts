// The docs users read: every TypeScript or JavaScript block is the region of a type-checked file
// it names (scripts/doc-snippets.ts rewrites them), and every relative link leads somewhere.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { brokenLinks, codeBlocks, isCode, markdownFiles, region } from '../scripts/doc-snippets.js';

const files = markdownFiles();

describe('the docs', () => {
  it('include the README, the guides and every package README', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('docs/architecture.md');
    expect(files).toContain('packages/cli/README.md');
  });

  it('show every code block exactly as it is in its type-checked file', () => {
    const problems: string[] = [];
    for (const block of files.flatMap(codeBlocks).filter(isCode)) {
      const where = `${block.file}:${block.line}`;
      if (block.source === undefined) {
        problems.push(`${where}: no <!-- snippet: file#region --> marker names its source`);
        continue;
      }
      let expected: string;
      try {
        expected = region(block.source.file, block.source.region);
      } catch (error) {
        problems.push(`${where}: ${(error as Error).message}`);
        continue;
      }
      if (block.code !== expected) {
        problems.push(
          `${where}: differs from ${block.source.file}#${block.source.region} (run npx tsx scripts/doc-snippets.ts)`,
        );
      }
    }
    expect(problems).toEqual([]);
  });

  it('link only to files that exist', () => {
    expect(files.flatMap(brokenLinks)).toEqual([]);
  });

  it('keep the README a front door', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(12_000);
  });
});
