import { SwitchyardError } from '../errors.js';

/** The plots need the optional packages `vega` and `vega-lite`, and one could not be loaded. */
export class ChartLibraryMissingError extends SwitchyardError {
  static readonly CODE = 'chart_library_missing';
  readonly code = ChartLibraryMissingError.CODE;

  constructor(cause: unknown) {
    super(
      'bench binder: the plots need the optional packages vega and vega-lite; install them with `npm install vega vega-lite` (the table and results.json need neither)',
      { cause },
    );
  }
}
