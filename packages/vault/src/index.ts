export type {
  ToolSearchContext,
  ToolSearchEvent,
  ToolSearchHook,
  ToolSearchQueryEvent,
  ToolSearchResultEvent,
  ToolSearchView,
} from 'switchyard/agent';
export { DEFAULT_NAMESPACE_DECAY } from './check-search-options.js';
export {
  createToolSearch,
  type ToolSearch,
  type ToolSearchOptions,
  type ToolSearchOutcome,
} from './create-tool-search.js';
export { MAX_REGEX_LENGTH } from './regex-search.js';
export { DEFAULT_FIELD_WEIGHTS, type FieldWeights } from './search-index.js';
export type {
  BuiltInVariant,
  CustomSearchFunction,
  CustomSearchOutput,
  NamedSearchHandler,
  SearchableTool,
  ToolSearchHit,
  ToolSearchQueryOptions,
  ToolSearchState,
  ToolSearchVariant,
} from './search-types.js';
export type { ToolSearchConfig, ToolSearchMode, ToolSearchOption } from './tool-search-config.js';
export { toolSearch } from './tool-search-hook.js';
