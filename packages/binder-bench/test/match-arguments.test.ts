import { describe, expect, it } from 'vitest';
import { matchArguments, normalizeAnswerString, oracleArguments } from '../src/match-arguments.js';

// Expected answers copied from BFCL cases of the dev split (ids in the test names).
const TRIANGLE = { base: [10], height: [5], unit: ['units', ''] }; // simple_python_0
const HYPOT = { x: [4], y: [5], z: ['', 0] }; // simple_python_2
const STOPS = {
  stops: [
    ['Santa Barbara', 'Monterey'],
    ['Monterey', 'Santa Barbara'],
  ],
}; // simple_python_37
const STUDENTS = {
  // simple_python_89: a nested object; its keys map to acceptable values again.
  conditions: [{ department: ['Science'], school: ['Bluebird High School', 'Bluebird HS'] }],
  database: ['StudentDB'],
};
const QUERY = {
  // simple_python_96: a list of objects, element order significant.
  table: ['user'],
  conditions: [
    [
      { field: ['age'], operation: ['>'], value: ['25'] },
      { field: ['job'], operation: ['='], value: ['engineer'] },
    ],
  ],
};

describe('matchArguments (BFCL acceptable-values rule)', () => {
  it('accepts the expected values and lets optional arguments be absent (simple_python_0)', () => {
    expect(matchArguments({ base: 10, height: 5 }, TRIANGLE)).toEqual({ correct: true });
    expect(matchArguments({ base: 10, height: 5, unit: 'units' }, TRIANGLE).correct).toBe(true);
  });

  it('refuses a missing required argument, an unexpected one and a wrong value', () => {
    expect(matchArguments({ base: 10 }, TRIANGLE)).toEqual({
      correct: false,
      reason: 'missing argument height',
    });
    expect(matchArguments({ base: 10, height: 5, colour: 'red' }, TRIANGLE)).toEqual({
      correct: false,
      reason: 'unexpected argument colour',
    });
    expect(matchArguments({ base: 10, height: 6 }, TRIANGLE)).toMatchObject({ correct: false });
    expect(matchArguments({ base: 10, height: 5, unit: 'cm' }, TRIANGLE).correct).toBe(false);
  });

  it('takes any value from the list of acceptable values, and "" only as absence or itself', () => {
    expect(matchArguments({ x: 4, y: 5, z: 0 }, HYPOT).correct).toBe(true);
    expect(matchArguments({ x: 4, y: 5 }, HYPOT).correct).toBe(true);
    expect(matchArguments({ x: 4, y: 5, z: 1 }, HYPOT).correct).toBe(false);
  });

  it('checks types: a number is not its string, a boolean is not a word, 4.0 is 4', () => {
    expect(matchArguments({ x: '4', y: 5 }, HYPOT).correct).toBe(false);
    expect(matchArguments({ x: 4.0, y: 5 }, HYPOT).correct).toBe(true);
    expect(matchArguments({ flag: 'true' }, { flag: [true] }).correct).toBe(false);
    expect(matchArguments({ flag: true }, { flag: [true] }).correct).toBe(true);
    expect(matchArguments({ value: null }, { value: [null] }).correct).toBe(true);
  });

  it('compares strings without case, spaces and , . / - _ * ^', () => {
    expect(normalizeAnswerString('New York, NY')).toBe('newyorkny');
    expect(
      matchArguments(
        { database: 'student_db', conditions: { department: 'science', school: 'bluebird hs' } },
        STUDENTS,
      ).correct,
    ).toBe(true);
  });

  it('compares lists element by element, in order, with any listed alternative (simple_python_37)', () => {
    expect(matchArguments({ stops: ['monterey', 'santa barbara'] }, STOPS).correct).toBe(true);
    expect(matchArguments({ stops: ['Santa Barbara'] }, STOPS).correct).toBe(false);
    expect(matchArguments({ stops: ['Santa Barbara', 'Monterey', 'LA'] }, STOPS).correct).toBe(
      false,
    );
  });

  it('matches nested objects by the same rule (simple_python_89)', () => {
    const good = {
      conditions: { department: 'Science', school: 'Bluebird HS' },
      database: 'StudentDB',
    };
    expect(matchArguments(good, STUDENTS).correct).toBe(true);
    const extraKey = { ...good, conditions: { ...good.conditions, grade: 9 } };
    expect(matchArguments(extraKey, STUDENTS).correct).toBe(false);
    const missing = { ...good, conditions: { department: 'Science' } };
    expect(matchArguments(missing, STUDENTS).correct).toBe(false);
    expect(matchArguments({ ...good, conditions: 'Science' }, STUDENTS).correct).toBe(false);
  });

  it('matches a list of objects element by element, in order (simple_python_96)', () => {
    const first = { field: 'age', operation: '>', value: '25' };
    const second = { field: 'job', operation: '=', value: 'engineer' };
    expect(matchArguments({ table: 'user', conditions: [first, second] }, QUERY).correct).toBe(
      true,
    );
    expect(matchArguments({ table: 'user', conditions: [second, first] }, QUERY).correct).toBe(
      false,
    );
    expect(matchArguments({ table: 'user', conditions: [first] }, QUERY).correct).toBe(false);
  });

  it('treats model keys as data: __proto__ and constructor are just unexpected arguments', () => {
    const hostile = JSON.parse('{"base":10,"height":5,"__proto__":{"polluted":1}}');
    expect(matchArguments(hostile, TRIANGLE)).toEqual({
      correct: false,
      reason: 'unexpected argument __proto__',
    });
    expect(matchArguments({ base: 10, height: 5, constructor: 1 }, TRIANGLE).correct).toBe(false);
  });
});

describe('oracleArguments', () => {
  it('takes each first acceptable value, leaves out arguments whose first value is ""', () => {
    expect(oracleArguments(TRIANGLE)).toEqual({ base: 10, height: 5, unit: 'units' });
    expect(oracleArguments(HYPOT)).toEqual({ x: 4, y: 5 });
  });

  it('builds nested objects and lists of objects from their patterns, and they match', () => {
    for (const expected of [STOPS, STUDENTS, QUERY]) {
      expect(matchArguments(oracleArguments(expected), expected).correct).toBe(true);
    }
    expect(oracleArguments(QUERY).conditions).toEqual([
      { field: 'age', operation: '>', value: '25' },
      { field: 'job', operation: '=', value: 'engineer' },
    ]);
  });
});
