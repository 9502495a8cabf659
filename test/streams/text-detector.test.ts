import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../../src/errors.js';
import {
  type CandidateRetractedEvent,
  createTextDetector,
  type DetectorEvent,
  type TextDetectorOptions,
} from '../../src/streams/detectors.js';

function run(chunks: readonly string[], options: Partial<TextDetectorOptions> = {}) {
  const events: DetectorEvent[] = [];
  let counter = 0;
  const detector = createTextDetector({
    toolNames: ['read', 'edit', 'run'],
    onEvent: (event) => events.push(event),
    generateCallId: () => `text-cand-${++counter}`,
    ...options,
  });
  for (const chunk of chunks) detector.pushText(chunk);
  detector.end();
  return events;
}

const typesOf = (events: readonly DetectorEvent[]) => events.map((event) => event.type);

function calls(events: readonly DetectorEvent[]) {
  return events.flatMap((event) =>
    event.type === 'candidate_promoted' ? [{ ...event.call, emitOrder: event.emitOrder }] : [],
  );
}

function retractions(events: readonly DetectorEvent[]): CandidateRetractedEvent[] {
  return events.filter(
    (event): event is CandidateRetractedEvent => event.type === 'candidate_retracted',
  );
}

/** All visible text, joined. */
function prose(events: readonly DetectorEvent[]): string {
  return events.flatMap((event) => (event.type === 'text' ? [event.text] : [])).join('');
}

/** The visible text per channel, with adjacent pieces of one channel joined. */
function channels(events: readonly DetectorEvent[]): { channel: string; text: string }[] {
  const runs: { channel: string; text: string }[] = [];
  for (const event of events) {
    if (event.type !== 'text') continue;
    const last = runs.at(-1);
    if (last?.channel === event.channel) last.text += event.text;
    else runs.push({ channel: event.channel, text: event.text });
  }
  return runs;
}

describe('createTextDetector: candidates', () => {
  it('opens a bare call at a line start and promotes it when its parenthesis balances', () => {
    expect(run(['read({', ' path: "a.md" })'])).toEqual([
      {
        type: 'candidate_opened',
        toolCallId: 'text-cand-1',
        toolName: 'read',
        source: 'text',
        status: 'pending',
        parsing: true,
        providerNative: false,
      },
      {
        type: 'candidate_promoted',
        toolCallId: 'text-cand-1',
        toolName: 'read',
        source: 'text',
        status: 'pending',
        parsing: false,
        call: { id: 'text-cand-1', name: 'read', arguments: { path: 'a.md' } },
        emitOrder: 0,
        rawInput: 'read({ path: "a.md" })',
      },
    ]);
  });

  it('opens a tagged block with an empty name and promotes it under the name read from its body', () => {
    const events = run([
      'Running it.\n<tool_call>\n',
      'run({ command: "ls" })\n',
      '</tool_call>\nDone.',
    ]);
    expect(events).toEqual([
      { type: 'text', text: 'Running it.\n', channel: 'prose' },
      {
        type: 'candidate_opened',
        toolCallId: 'text-cand-1',
        toolName: '',
        source: 'text',
        status: 'pending',
        parsing: true,
        providerNative: false,
      },
      {
        type: 'candidate_promoted',
        toolCallId: 'text-cand-1',
        toolName: 'run',
        source: 'text',
        status: 'pending',
        parsing: false,
        call: { id: 'text-cand-1', name: 'run', arguments: { command: 'ls' } },
        emitOrder: 0,
        rawInput: 'run({ command: "ls" })',
      },
      { type: 'text', text: '\n', channel: 'prose' },
      // A line start that could still be a name is held until the text says otherwise.
      { type: 'text', text: 'Done.', channel: 'prose' },
    ]);
  });

  it('gives sequential candidates distinct ids and emitOrder 0, 1, … in text order', () => {
    const events = run(['read({ path: "a.md" })\n', 'run({ command: "ls" })\n']);
    expect(calls(events)).toEqual([
      { id: 'text-cand-1', name: 'read', arguments: { path: 'a.md' }, emitOrder: 0 },
      { id: 'text-cand-2', name: 'run', arguments: { command: 'ls' }, emitOrder: 1 },
    ]);
  });

  it('waits when a chunk ends inside a name, a tag or the indentation of a line start', () => {
    expect(calls(run(['re', 'ad({ path: "a.md" })']))).toHaveLength(1);
    expect(calls(run(['<tool_', 'call>read({})</tool', '_call>']))).toHaveLength(1);
    expect(calls(run(['  ', '\tread', '({})']))).toHaveLength(1);
  });

  it('never opens a candidate mid-line, for an unknown name, or without an immediate (', () => {
    const events = run([
      'I will read({ path: "a" }) now\n',
      'mystery({ foo: 1 })\n',
      'read ({ path: "a" })\n',
      'readme({ x: 1 })\n',
      'text <tool_call>read({})</tool_call>\n',
    ]);
    expect(typesOf(events).every((type) => type === 'text')).toBe(true);
    expect(prose(events)).toBe(
      'I will read({ path: "a" }) now\nmystery({ foo: 1 })\nread ({ path: "a" })\nreadme({ x: 1 })\ntext <tool_call>read({})</tool_call>\n',
    );
  });

  it('resolves bare names and tagged names through resolveName', () => {
    const events = run(['fs_read({ path: "a" })\n<tool_call>fs_read({})</tool_call>'], {
      toolNames: ['fs.read'],
      resolveName: (name) => (name === 'fs_read' ? 'fs.read' : undefined),
    });
    expect(calls(events).map((call) => call.name)).toEqual(['fs.read', 'fs.read']);
  });

  it('keeps a ) or </tool_call> inside strings and comments from ending a call', () => {
    const events = run([
      'run({ command: "echo )", note: \'</tool_call>\' /* ) */ })\n',
      '<tool_call>run({ command: "a</tool_call>b" }) // </tool_call>\n</tool_call>',
    ]);
    expect(calls(events).map((call) => call.arguments)).toEqual([
      { command: 'echo )', note: '</tool_call>' },
      { command: 'a</tool_call>b' },
    ]);
  });

  it('detects a bare call right after </tool_call>, but not right after another bare call', () => {
    const events = run(['<tool_call>read({})</tool_call>run({ command: "a" })read({})']);
    expect(calls(events).map((call) => call.name)).toEqual(['read', 'run']);
    expect(prose(events)).toBe('read({})');
  });

  it('takes the text after a bare call on the same line as prose', () => {
    const events = run(['read({ path: "a" }) and then more\n']);
    expect(prose(events)).toBe(' and then more\n');
  });
});

describe('createTextDetector: heredoc values', () => {
  it('reads a heredoc body that contains ) and </tool_call>, split across chunks', () => {
    const events = run([
      '<tool_call>\nedit({ path: "d.md", content: <<EOF\nline one',
      '\nmore </tool_call> text)\nEOF\n })</tool_call>',
    ]);
    expect(calls(events)).toEqual([
      {
        id: 'text-cand-1',
        name: 'edit',
        arguments: { path: 'd.md', content: 'line one\nmore </tool_call> text)' },
        emitOrder: 0,
      },
    ]);
  });

  it('closes a heredoc only on a line starting with its whole tag', () => {
    const events = run(["edit({ content: <<'END'\n  END_NOT\nENDX\n", '  END', ', path: "x" })']);
    expect(calls(events).map((call) => call.arguments)).toEqual([
      { content: '  END_NOT\nENDX', path: 'x' },
    ]);
  });

  it('keeps a bare call open while its heredoc is unclosed, then retracts it at the end', () => {
    const events = run(['edit({ content: <<EOF\nhalf a file\n']);
    expect(typesOf(events)).toEqual(['candidate_opened', 'candidate_retracted']);
    expect(retractions(events)[0]).toMatchObject({
      toolName: 'edit',
      reason: 'incomplete',
      error:
        'Could not parse the call `edit(...)`: the heredoc <<EOF is not closed: end it with a line that starts with EOF (line 1, column 17). Write the arguments as one object literal: `edit({ key: "value" })`.',
    });
  });
});

describe('createTextDetector: fences', () => {
  it('ignores calls and tags inside a ``` fence', () => {
    const events = run([
      'Here is some code:\n',
      '```python\n',
      'read(x)\n<tool_call>read({})</tool_call>\n',
      '```\n',
      'Done.\n',
    ]);
    expect(typesOf(events).every((type) => type === 'text')).toBe(true);
  });

  it('toggles a fence only once its line break arrives', () => {
    const events = run(['``', '`', 'ts', '\nread({})\n``', '`\nread({})\n']);
    expect(calls(events)).toHaveLength(1);
    expect(prose(events)).toBe('```ts\nread({})\n```\n\n');
  });

  it('does not take `` or ` at a line start for a fence', () => {
    expect(calls(run(['``\nread({})\n`x`\nread({})\n']))).toHaveLength(2);
  });
});

describe('createTextDetector: abort messages', () => {
  const aborted = (chunks: string[]) => retractions(run(chunks));

  it.each([
    ['<tool_call>  \n </tool_call>', 'empty_body', '<tool_call> body was empty.'],
    [
      '<tool_call>42</tool_call>',
      'missing_name',
      '<tool_call> body did not begin with a `name(` identifier.',
    ],
    ['<tool_call>zap({})</tool_call>', 'unknown_tool', "Unknown tool 'zap' in <tool_call> body."],
    [
      '<tool_call>read ({})</tool_call>',
      'invalid_syntax',
      'Expected `read(` immediately after the tool name in <tool_call> body.',
    ],
    [
      '<tool_call>read("a.md")</tool_call>',
      'not_an_object',
      'The call `read(...)` must take one object literal, got a string. Wrap the values in braces: `read({ key: value })`.',
    ],
    [
      '<tool_call>read({ path: })</tool_call>',
      'invalid_syntax',
      'Could not parse the call `read(...)`: unexpected `}` where a value should start (line 1, column 14). Write the arguments as one object literal: `read({ key: "value" })`.',
    ],
    [
      '<tool_call>\nrun({ command: "ls" })',
      'incomplete',
      '<tool_call> block did not close before the response ended.',
    ],
  ])('retracts %j: %s', (text, reason, error) => {
    expect(aborted([text])).toEqual([
      {
        type: 'candidate_retracted',
        toolCallId: 'text-cand-1',
        toolName: '',
        source: 'text',
        status: 'failed',
        parsing: false,
        errorCategory: 'parse_aborted',
        reason,
        error,
        rawInput: expect.any(String),
      },
    ]);
  });

  it('retracts a bare call as soon as it closes malformed, and goes on detecting after it', () => {
    const events = run(['read(the docs) first\n', 'read({ path: "a" })\n']);
    expect(typesOf(events)).toEqual([
      'candidate_opened',
      'candidate_retracted',
      'text',
      'candidate_opened',
      'candidate_promoted',
      'text',
    ]);
    expect(retractions(events)[0]).toMatchObject({
      toolName: 'read',
      reason: 'invalid_syntax',
      error:
        'Could not parse the call `read(...)`: unexpected `the`: text values must be quoted (line 1, column 6). Write the arguments as one object literal: `read({ key: "value" })`.',
      rawInput: 'read(the docs)',
    });
    expect(calls(events)).toEqual([
      { id: 'text-cand-2', name: 'read', arguments: { path: 'a' }, emitOrder: 0 },
    ]);
  });

  it('gives an open bare call one last parse at the end and retracts it with the parser message', () => {
    const events = run(['edit({ broken: , }']);
    expect(retractions(events)).toEqual([
      expect.objectContaining({
        toolCallId: 'text-cand-1',
        toolName: 'edit',
        reason: 'invalid_syntax',
        error:
          'Could not parse the call `edit(...)`: unexpected `,` where a value should start (line 1, column 16). Write the arguments as one object literal: `edit({ key: "value" })`.',
      }),
    ]);
  });

  it('forgives a missing ) inside a <tool_call> block', () => {
    expect(calls(run(['<tool_call>read({ path: "a" }</tool_call>']))).toHaveLength(1);
  });

  it('marks candidates cut by an unsafe finish as cut_off, keeping the protocol message', () => {
    const events: DetectorEvent[] = [];
    const detector = createTextDetector({
      toolNames: ['run'],
      onEvent: (event) => events.push(event),
    });
    detector.push({ type: 'text', text: '<tool_call>run({ command: "l' });
    detector.push({ type: 'finish', reason: 'length', safe: false });
    detector.push({ type: 'text', text: 's" })</tool_call>' });
    expect(retractions(events)).toEqual([
      expect.objectContaining({
        reason: 'cut_off',
        error: '<tool_call> block did not close before the response ended.',
      }),
    ]);
    expect(typesOf(events)).toEqual(['candidate_opened', 'candidate_retracted']);
  });
});

describe('createTextDetector: prose, user responses and done', () => {
  it('emits nothing for an empty stream or an empty chunk', () => {
    expect(run([])).toEqual([]);
    expect(run(['', ''])).toEqual([]);
  });

  it('emits held-back text at the end when no call came of it', () => {
    const events = run(['Some text\nrea']);
    expect(prose(events)).toBe('Some text\nrea');
    expect(events.at(-1)).toEqual({ type: 'text', text: 'rea', channel: 'prose' });
  });

  it('puts <user_response> text in its own channel, closing mid-line and across chunks', () => {
    const events = run([
      'thinking out loud\n<user_response>Hello!\nIt is ',
      'done.</user_res',
      'ponse>\n<done>##DONE##</done>\n',
    ]);
    expect(events).toEqual([
      { type: 'text', text: 'thinking out loud\n', channel: 'prose' },
      { type: 'text', text: 'Hello!\nIt is ', channel: 'user_response' },
      { type: 'text', text: 'done.', channel: 'user_response' },
      { type: 'text', text: '\n', channel: 'prose' },
      { type: 'done', marker: '##DONE##' },
      { type: 'text', text: '\n', channel: 'prose' },
    ]);
  });

  it('keeps a </user_response> inside a fence as text of the response', () => {
    const events = run(['<user_response>\n```\n</user_response>\n```\n</user_response>']);
    expect(channels(events)).toEqual([
      { channel: 'user_response', text: '\n```\n</user_response>\n```\n' },
    ]);
  });

  it('waits for a <done> line to close, and takes an unclosed one as prose', () => {
    expect(run(['<done>##DO', 'NE##</done>'])).toEqual([{ type: 'done', marker: '##DONE##' }]);
    const unclosed = run(['<done>not closed\nmore']);
    expect(typesOf(unclosed).every((type) => type === 'text')).toBe(true);
    expect(prose(unclosed)).toBe('<done>not closed\nmore');
  });

  it('reads text deltas like pushText and ignores native call deltas', () => {
    const events: DetectorEvent[] = [];
    const detector = createTextDetector({
      toolNames: ['read'],
      onEvent: (event) => events.push(event),
      generateCallId: () => 'c1',
    });
    detector.push({ type: 'text', text: 'read({ pa' });
    detector.push({ type: 'call_start', key: '0', id: 'x', name: 'read' });
    detector.push({ type: 'call_arguments', key: '0', fragment: '{}' });
    detector.push({ type: 'text', text: 'th: "a" })' });
    detector.push({ type: 'finish', reason: 'stop', safe: true });
    expect(calls(events)).toEqual([
      { id: 'c1', name: 'read', arguments: { path: 'a' }, emitOrder: 0 },
    ]);
    expect(typesOf(events)).toEqual(['candidate_opened', 'candidate_promoted']);
  });

  it('decides overlong line starts without waiting for their end', () => {
    const events: DetectorEvent[] = [];
    const detector = createTextDetector({
      toolNames: ['read'],
      onEvent: (event) => events.push(event),
    });
    for (const piece of ['x'.repeat(300), '```'.padEnd(300, 'y'), '<done>'.padEnd(300, 'z')]) {
      events.length = 0;
      detector.pushText('\n');
      for (const character of piece) detector.pushText(character);
      expect(prose(events).length, piece.slice(0, 6)).toBeGreaterThan(200);
    }
    detector.pushText('\nread({})\n');
    expect(calls(events)).toHaveLength(1);
  });

  it('ignores text pushed after the end', () => {
    const events: DetectorEvent[] = [];
    const detector = createTextDetector({
      toolNames: ['read'],
      onEvent: (event) => events.push(event),
    });
    detector.end();
    detector.pushText('read({})');
    detector.end();
    expect(events).toEqual([]);
  });
});

describe('createTextDetector: options', () => {
  it('names the invalid option', () => {
    let error: unknown;
    try {
      createTextDetector({ toolNames: [1], onEvent: () => {} } as unknown as TextDetectorOptions);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error).toMatchObject({ option: 'toolNames' });
  });
});
