import { describe, expect, it } from 'vitest';
import { mayMatch, requiredLiterals } from '../src/required-literals.js';
import { segmentCompound } from '../src/segment-compound.js';
import { splitWords, tokenize } from '../src/tokenize.js';

describe('tokenize', () => {
  it('splits identifiers at case, digit and separator boundaries, drops stop words, stems', () => {
    expect(splitWords('getHTTPResponse2xx open_file PDF&URLTool')).toEqual([
      'get',
      'http',
      'response',
      '2',
      'xx',
      'open',
      'file',
      'pdf',
      'url',
      'tool',
    ]);
    expect(tokenize('Please find the running files')).toEqual(['find', 'run', 'file']);
  });
});

describe('segmentCompound', () => {
  it('covers a run-together word with the longest known words, skipping unknown letters', () => {
    const dictionary = new Set(['air', 'quality', 'forecast', 'for', 'cast']);
    expect(segmentCompound('airqualityforecast', dictionary)).toEqual([
      'air',
      'quality',
      'forecast',
    ]);
    expect(segmentCompound('airqualityforeast', dictionary)).toEqual(['air', 'quality', 'for']);
    expect(segmentCompound('zzzz', dictionary)).toEqual([]);
  });
});

describe('requiredLiterals', () => {
  it('finds the literals every match must contain, per alternative', () => {
    expect(requiredLiterals('get_.*weather')).toEqual([['get_', 'weather']]);
    expect(requiredLiterals('stock|Finance')).toEqual([['stock'], ['finance']]);
    expect(requiredLiterals('files?\\.read')).toEqual([['file', '.read']]);
    expect(requiredLiterals('ab+c')).toEqual([['ab', 'c'].filter((s) => s.length > 1)]);
  });

  it('gives up (every text is a candidate) when an alternative needs no literal', () => {
    expect(requiredLiterals('(a|b)+')).toBeUndefined();
    expect(requiredLiterals('weather|[0-9]+')).toBeUndefined();
    expect(requiredLiterals('x?y?')).toBeUndefined();
  });

  it('never rules out a text the pattern matches', () => {
    const patterns = [
      'get_.*weather',
      'send.(email|mail)',
      'a+b',
      '\\bfile',
      'colou?r',
      'x{2}yz',
      '[Ss]tock|fund',
    ];
    const texts = [
      'get_current_weather',
      'send email',
      'send-mail',
      'aaab',
      'a file',
      'color',
      'colour',
      'xxyz',
      'Stock',
      'fund',
    ];
    for (const pattern of patterns) {
      const required = requiredLiterals(pattern);
      const regex = new RegExp(pattern, 'i');
      for (const text of texts) {
        if (regex.test(text))
          expect(
            required === undefined || mayMatch(text.toLowerCase(), required),
            `${pattern} / ${text}`,
          ).toBe(true);
      }
    }
  });
});
