import { join } from 'node:path';
import { composeToolCallers, createDispatcher, createToolRegistry } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { readTools, stdlibTools, withHostToolResults } from '../src/index.js';
import { hostFixture } from './host-fixture.js';
import { renderTextImage } from './render-text-image.js';

const { root } = hostFixture();
const dispatcher = createDispatcher({
  registry: createToolRegistry([...readTools({ root }), ...stdlibTools({ workers: false, root })]),
  caller: composeToolCallers([withHostToolResults()]),
});

describe('withHostToolResults', () => {
  it('turns a refusal into a scope_violation result carrying the typed denial', async () => {
    const result = await dispatcher.dispatch({
      id: 'r',
      name: 'read_file',
      arguments: { path: '../outside/secret.txt' },
    });
    expect(result).toMatchObject({
      ok: false,
      status: 'scope_violation',
      errorCategory: 'permission_denied',
      denial: {
        gate: 'arg_constraint',
        capability: 'filesystem.read',
        deniedPaths: ['../outside/secret.txt'],
        retryable: true,
      },
    });
    expect(result.audit?.layers).toContainEqual({
      name: 'with_host_tool_results',
      status: 'refused',
      gate: 'arg_constraint',
    });
  });

  it('records OCR metadata on audit.vision_ocr', async () => {
    renderTextImage(join(root, 'note.pgm'), ['HELLO 42']);
    const result = await dispatcher.dispatch({
      id: 'o',
      name: 'vision_ocr',
      arguments: { image: 'note.pgm' },
    });
    expect(result.audit?.vision_ocr).toMatchObject({
      backend: { name: 'tesseract', language: 'eng' },
      source: { path: 'note.pgm' },
      stats: { tokens: 2 },
    });
  });

  it('leaves other results alone', async () => {
    const result = await dispatcher.dispatch({
      id: 'ok',
      name: 'read_file',
      arguments: { path: 'notes.txt' },
    });
    expect(result.status).toBe('ok');
    expect(result.audit).toBeUndefined();
  });
});
