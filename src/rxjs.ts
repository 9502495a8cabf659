/**
 * The few RxJS values Switchyard uses at run time, each from its own module. RxJS's package index
 * is CommonJS that loads all of its ~740 files, which alone doubled the cost of importing
 * Switchyard; these paths are in RxJS's published `exports` map (`./internal/*`) and are the very
 * classes its index re-exports, so an `Observable` made here is the one users' `rxjs` knows.
 *
 * These ~25 CommonJS files still cost about 20 ms, half of importing the bundled root. Two ways
 * out were weighed and left: RxJS's ES module build sits behind the `es2015` condition, which
 * Node does not set, and its classes are other classes than the CommonJS ones users' `rxjs`
 * resolves to in Node (`instanceof Observable` would fail); loading RxJS lazily would only move
 * the cost to `createDispatcher`, which makes its `events$` Subject at once.
 */
export { Observable } from 'rxjs/internal/Observable';
export { Subject } from 'rxjs/internal/Subject';
export { asyncScheduler } from 'rxjs/internal/scheduler/async';
