import { InvalidOptionError } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { createToolSearch, type SearchableTool } from '../src/index.js';

const TOOLS: SearchableTool[] = [
  { name: 'open_file', description: 'Returns the contents of a path in the workspace.' },
  { name: 'run_command', description: 'Executes a program and captures stdout and stderr.' },
  {
    name: 'sendEmailMessage',
    description: 'Delivers a message to recipients.',
    inputSchema: {
      type: 'object',
      properties: { recipient_address: { type: 'string' }, subject: { type: 'string' } },
    },
  },
  {
    name: 'get_weather',
    description: 'Current conditions and air quality for a city.',
    inputSchema: {
      type: 'object',
      properties: {
        city: { type: 'string', description: 'The city, e.g. Paris' },
        unit: { enum: ['celsius', 'fahrenheit'] },
      },
    },
    namespace: 'weather',
  },
  { name: 'airqualityforecast', description: 'Forecasts pollution levels.', namespace: 'weather' },
  {
    name: 'list_directory',
    description:
      'Lists the entries of a folder. Use it to run through folders, command line style, and describe what a command would see.',
  },
];

const names = (hits: readonly { name: string }[]) => hits.map((hit) => hit.name);

describe('createToolSearch: bm25', () => {
  const search = createToolSearch({ tools: TOOLS });

  it('matches snake_case and camelCase names from plain words', async () => {
    expect(names(await search.search('open file'))[0]).toBe('open_file');
    expect(names(await search.search('send an email'))[0]).toBe('sendEmailMessage');
  });

  it('stems words and searches parameter names, descriptions and enum values', async () => {
    expect(names(await search.search('emails to a recipient'))[0]).toBe('sendEmailMessage');
    expect(names(await search.search('temperature in fahrenheit'))[0]).toBe('get_weather');
  });

  it('splits run-together names into the words of the other tools', async () => {
    expect(names(await search.search('air quality'))).toContain('airqualityforecast');
  });

  it('ranks by score, keeps only matches, honours limit and namespace', async () => {
    const hits = await search.search('folders command', { limit: 2 });
    expect(hits).toHaveLength(2);
    expect((hits[0]?.score ?? 0) >= (hits[1]?.score ?? 0)).toBe(true);
    expect(await search.search('zebra quantum')).toEqual([]);
    expect(names(await search.search('forecast city', { namespace: 'weather' })).sort()).toEqual([
      'airqualityforecast',
      'get_weather',
    ]);
  });

  it('explains an empty result and ignores blank queries', async () => {
    expect(await search.explain('zebra')).toEqual({
      hits: [],
      diagnostic: 'no deferred tools matched the query; try broader terms',
    });
    expect((await search.explain('   ')).hits).toEqual([]);
  });
});

describe('createToolSearch: namespaceDecay', () => {
  // Three near-identical forecasts of one server outscore the other server's longer description.
  const SPREAD: SearchableTool[] = [
    { name: 'forecast_daily', description: 'Weather forecast, daily.', namespace: 'meteo' },
    { name: 'forecast_hourly', description: 'Weather forecast, hourly.', namespace: 'meteo' },
    { name: 'forecast_weekly', description: 'Weather forecast, weekly.', namespace: 'meteo' },
    {
      name: 'trip_planner',
      description: 'Plans trips around the weather forecast.',
      namespace: 'travel',
    },
  ];
  const query = 'weather forecast';

  it('spreads the hits over namespaces by default, keeping order within each', async () => {
    for (const variant of ['bm25', 'hybrid'] as const) {
      const search = createToolSearch({ tools: SPREAD, variant });
      const top = names(await search.search(query, { limit: 3 }));
      expect(top[0]).toBe('forecast_daily');
      expect(top).toContain('trip_planner');
      expect(top).not.toContain('forecast_weekly');
    }
  });

  it('ranks by score alone with namespaceDecay 1, or within one namespace', async () => {
    for (const variant of ['bm25', 'hybrid'] as const) {
      const plain = createToolSearch({ tools: SPREAD, variant, namespaceDecay: 1 });
      expect(names(await plain.search(query, { limit: 3 }))).not.toContain('trip_planner');
      const spread = createToolSearch({ tools: SPREAD, variant });
      expect(await spread.search(query, { namespace: 'meteo' })).toEqual(
        await plain.search(query, { namespace: 'meteo' }),
      );
    }
  });

  it('rejects a decay outside (0, 1]', () => {
    for (const namespaceDecay of [0, 1.5, Number.NaN, '0.5' as unknown as number]) {
      expect(() => createToolSearch({ tools: SPREAD, namespaceDecay })).toThrow(InvalidOptionError);
    }
  });
});

describe('createToolSearch: regex', () => {
  const search = createToolSearch({ tools: TOOLS, variant: 'regex' });

  it('matches case-insensitively, names first', async () => {
    expect(names(await search.search('WEATHER'))[0]).toBe('get_weather');
    expect(names(await search.search('^(open|run)_'))).toEqual(['open_file', 'run_command']);
    expect(names(await search.search('recipient_addr'))).toEqual(['sendEmailMessage']);
  });

  it('reports patterns that do not compile or are too long, and finds nothing', async () => {
    const broken = await search.explain('(unclosed');
    expect(broken.hits).toEqual([]);
    expect(broken.diagnostic).toMatch(/regex compile error/);
    expect((await search.explain('a'.repeat(201))).diagnostic).toMatch(/longer than 200/);
    expect((await search.explain('(?=look)ahead')).diagnostic).toMatch(/regex compile error/);
  });

  it('runs a catastrophic-backtracking pattern in linear time', async () => {
    // A backtracking engine needs ~2^5000 steps here and would hang past the test's timeout.
    const tools = [{ name: 'long', description: `${'a'.repeat(5000)}!` }];
    const hits = await createToolSearch({ tools, variant: 'regex' }).search('(a+)+$x');
    expect(hits).toEqual([]);
    expect(await createToolSearch({ tools, variant: 'regex' }).search('(a+)+!')).toEqual([
      { name: 'long', score: 2 },
    ]);
  });
});

describe('createToolSearch: hybrid', () => {
  it('puts a tool named verbatim ahead of tools that only talk about it', async () => {
    const prose = createToolSearch({ tools: TOOLS });
    const hybrid = createToolSearch({ tools: TOOLS, variant: 'hybrid' });
    const query = 'run_command to list folders like a command line would';
    expect(names(await prose.search(query))[0]).toBe('list_directory');
    expect(names(await hybrid.search(query))[0]).toBe('run_command');
  });
});

describe('createToolSearch: custom strategies', () => {
  it('plugs in a function that sees the query, the tools and the state', async () => {
    const seen: unknown[] = [];
    // A toy "embedding": character overlap. Users bring real vectors the same way.
    const search = createToolSearch({
      tools: TOOLS,
      variant: (query, tools, state) => {
        seen.push({ query, count: tools.length, state });
        const overlap = (name: string) =>
          [...new Set(query)].filter((c) => name.includes(c)).length;
        return tools
          .map((tool) => ({ name: tool.name, score: overlap(tool.name) }))
          .sort((a, b) => b.score - a.score);
      },
    });
    expect(search.variant).toBe('custom');
    const hits = await search.search('wthr', { limit: 1, promoted: ['open_file'] });
    expect(hits).toEqual([{ name: 'get_weather', score: 4 }]);
    expect(seen).toEqual([
      { query: 'wthr', count: 6, state: { variant: 'custom', limit: 1, promoted: ['open_file'] } },
    ]);
  });

  it('takes a named async handler and normalises what it returns', async () => {
    const search = createToolSearch({
      tools: TOOLS,
      variant: {
        name: 'reranker',
        handler: async () => ({ toolNames: ['nope', 'run_command', 'run_command', 'open_file'] }),
      },
    });
    expect(search.variant).toBe('reranker');
    expect(await search.search('x')).toEqual([
      { name: 'run_command', score: 1 },
      { name: 'open_file', score: 0.5 },
    ]);
  });
});

describe('createToolSearch: options', () => {
  it('rejects an unknown variant and tools without names', () => {
    expect(() => createToolSearch({ tools: TOOLS, variant: 'fuzzy' as never })).toThrow(
      InvalidOptionError,
    );
    expect(() => createToolSearch({ tools: TOOLS, variant: { handler: 3 } as never })).toThrow(
      /custom variant/,
    );
    expect(() => createToolSearch({ tools: [{ description: 'x' }] as never })).toThrow(
      /string name/,
    );
    expect(() => createToolSearch({ tools: 5 as never })).toThrow(InvalidOptionError);
  });

  it('weighs fields by weights, and checks k1, b and weights', async () => {
    // "folders" is in list_directory's description only; "open" in open_file's name only.
    const nameless = createToolSearch({
      tools: TOOLS,
      weights: { name: 0, description: 1, parameters: 0 },
    });
    expect(names(await nameless.search('open'))).toEqual([]);
    expect(names(await nameless.search('folders'))).toEqual(['list_directory']);
    const prose = 'entries of folders';
    const flat = createToolSearch({ tools: TOOLS, k1: 0.5, b: 0 });
    expect(names(await flat.search(prose))).toEqual(['list_directory']);
    const bad = [
      { k1: 0 },
      { k1: Number.POSITIVE_INFINITY },
      { b: 1.5 },
      { b: -0.1 },
      { weights: { name: 0, description: 0, parameters: 0 } },
      { weights: { name: -1, description: 1, parameters: 1 } },
      { weights: { name: 1 } as never },
    ];
    for (const options of bad) {
      expect(() => createToolSearch({ tools: TOOLS, ...options })).toThrow(InvalidOptionError);
    }
  });

  it('keeps the first of tools sharing a name and survives hostile schemas', async () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 10_000; i += 1) deep = { type: 'object', properties: { inner: deep } };
    const search = createToolSearch({
      tools: [
        { name: 'dup', description: 'first copy' },
        { name: 'dup', description: 'second copy' },
        { name: 'deep', description: 'nested', inputSchema: deep },
      ],
    });
    expect(search.tools.map((tool) => tool.description)).toEqual(['first copy', 'nested']);
    expect(names(await search.search('second'))).toEqual([]);
    expect(names(await search.search('inner'))).toEqual(['deep']);
  });
});
