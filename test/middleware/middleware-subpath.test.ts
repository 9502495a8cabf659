import { describe, expect, it } from 'vitest';
import { NextCalledTwiceError } from '../../src/errors.js';
import * as middleware from '../../src/middleware/index.js';

describe('the ./middleware subpath', () => {
  it('exports the error a second next() rejects with', () => {
    expect(middleware.NextCalledTwiceError).toBe(NextCalledTwiceError);
    const error = new middleware.NextCalledTwiceError('twice');
    expect(error).toMatchObject({ code: 'SY_ERR_NEXT_CALLED_TWICE', layer: 'twice' });
    expect(NextCalledTwiceError.isInstance(error)).toBe(true);
  });
});
