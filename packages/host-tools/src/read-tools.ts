import { checkPositive, checkStringList, optionsObject } from 'switchyard/extension';
import type { AnyTool } from 'switchyard/tools';
import { fileOutlineTool } from './file-outline-tool.js';
import { gitInspectTool } from './git-inspect-tool.js';
import { buildHostToolSet, type HostToolSetOptions } from './host-tool-set.js';
import { listDirectoryTool } from './list-directory-tool.js';
import type { ReadContext } from './read-context.js';
import { readFileTailTool } from './read-file-tail-tool.js';
import { readFileTool } from './read-file-tool.js';
import { createRootScope } from './root-scope.js';
import { searchFilesTool } from './search-files-tool.js';

/** Options of `readTools`. */
export interface ReadToolsOptions extends HostToolSetOptions {
  /** Directory every path is confined to (must exist). */
  readonly root: string;
  /** Most content bytes one read or git output returns. Default 65 536. */
  readonly maxReadBytes?: number;
  /** Largest prefix of a file read to split lines, search or outline it. Default 8 MiB. */
  readonly maxFileBytes?: number;
  /** `search_files` `max_matches` when the call leaves it out. Default 50. */
  readonly searchMaxMatches?: number;
  /** Root-relative globs `search_files` always skips; a call's own are added. Default none. */
  readonly excludeGlobs?: readonly string[];
  /** Longest a `git_inspect` call may run. Default 20 000 ms. */
  readonly gitTimeoutMs?: number;
}

const FACTORY = 'readTools';

/** The read tools' shared context, options checked. Throws `InvalidOptionError` naming the option. */
export function readContext(options: ReadToolsOptions): ReadContext {
  const settings = optionsObject(FACTORY, options);
  const number = (option: keyof ReadToolsOptions, fallback: number) =>
    settings[option] === undefined
      ? fallback
      : checkPositive(FACTORY, option, settings[option], { integer: true });
  return {
    scope: createRootScope(settings.root),
    maxReadBytes: number('maxReadBytes', 65_536),
    maxFileBytes: number('maxFileBytes', 8 * 1024 * 1024),
    searchMaxMatches: number('searchMaxMatches', 50),
    excludeGlobs:
      settings.excludeGlobs === undefined
        ? []
        : checkStringList(FACTORY, 'excludeGlobs', settings.excludeGlobs),
    gitTimeoutMs: number('gitTimeoutMs', 20_000),
  };
}

/**
 * Root-scoped, read-only tools: `read_file`, `read_file_tail`, `list_directory`,
 * `get_file_outline`, `search_files` and `git_inspect` (group `read`). Nothing outside `root` is
 * read, listed, searched or inspected: such a call returns a refusal carrying a `ToolDenial`.
 * Throws `InvalidOptionError` for a missing root or a bad limit.
 *
 * @example
 * const registry = createToolRegistry(readTools({ root: process.cwd(), excludeGlobs: ['dist/**'] }));
 */
export function readTools(options: ReadToolsOptions): AnyTool[] {
  const context = readContext(options);
  return buildHostToolSet(
    FACTORY,
    [
      readFileTool(context),
      readFileTailTool(context),
      listDirectoryTool(context),
      fileOutlineTool(context),
      searchFilesTool(context),
      gitInspectTool(context),
    ],
    options,
  );
}
