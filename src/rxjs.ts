/**
 * The few RxJS values Switchyard uses at run time, each from its own module. RxJS's package index
 * is CommonJS that loads all of its ~740 files, which alone doubled the cost of importing
 * Switchyard; these paths are in RxJS's published `exports` map (`./internal/*`) and are the very
 * classes its index re-exports, so an `Observable` made here is the one users' `rxjs` knows.
 */
export { Observable } from 'rxjs/internal/Observable';
export { Subject } from 'rxjs/internal/Subject';
export { asyncScheduler } from 'rxjs/internal/scheduler/async';
