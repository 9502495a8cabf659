// The tools of the batch-cost example (README.md): two report what each call spent
// (`runtime.reportCost`), one is priced per call in prices.json, one is free. Deterministic, so
// the recorded summary.txt stays what the command prints.
import { createToolRegistry, defineTool } from 'switchyard';

const webSearch = defineTool({
  name: 'web_search',
  description: 'Search the web; billed per result page.',
  inputSchema: {
    type: 'object',
    properties: { query: { type: 'string' }, pages: { type: 'integer', minimum: 1 } },
    required: ['query', 'pages'],
    additionalProperties: false,
  } as const,
  safety: { readOnly: true, spend: true },
  handler: ({ query, pages }, runtime) => {
    runtime.reportCost({ usd: 0.005 * pages, units: pages, unit: 'page' });
    return { hits: Array.from({ length: pages }, (_, page) => `${query} (page ${page + 1})`) };
  },
});

const geocode = defineTool({
  name: 'geocode',
  description: 'The coordinates of an address; billed per lookup.',
  inputSchema: {
    type: 'object',
    properties: { address: { type: 'string' } },
    required: ['address'],
    additionalProperties: false,
  } as const,
  safety: { readOnly: true, spend: true },
  handler: ({ address }, runtime) => {
    runtime.reportCost({ usd: 0.002 });
    return { address, lat: 52.37, lon: address.length / 10 };
  },
});

// Reports nothing: its price comes from prices.json ("perCall").
const summarizeDocument = defineTool({
  name: 'summarize_document',
  description: 'A short summary of a document, by an outside service that bills per call.',
  inputSchema: {
    type: 'object',
    properties: { url: { type: 'string' } },
    required: ['url'],
    additionalProperties: false,
  } as const,
  safety: { readOnly: true },
  handler: ({ url }) => ({ url, summary: `The document at ${url}, in one line.` }),
});

const wordCount = defineTool({
  name: 'word_count',
  description: 'Counts the words of a text; free.',
  inputSchema: {
    type: 'object',
    properties: { text: { type: 'string' } },
    required: ['text'],
    additionalProperties: false,
  } as const,
  safety: { readOnly: true },
  handler: ({ text }) => ({ words: text.split(/\s+/).filter(Boolean).length }),
});

export default createToolRegistry([webSearch, geocode, summarizeDocument, wordCount]);
