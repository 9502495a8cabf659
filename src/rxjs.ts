import { createRequire } from 'node:module';
import type { asyncScheduler, Observable, Subject } from 'rxjs';

/**
 * The few RxJS values Switchyard uses at run time, loaded on first use. RxJS's package index is
 * CommonJS that loads all of its ~740 files, so each value comes from its own module; these paths
 * are in RxJS's published `exports` map (`./internal/*`) and are the very classes its index
 * re-exports, so an `Observable` made here is the one users' `rxjs` knows. Even those ~25 files
 * cost about 20 ms, a third of importing the root, and a program that never subscribes (a batch
 * run, a worker) needs none of them: they load when an operator runs or `events$` is first read.
 * RxJS's ES module build is no way out: it sits behind the `es2015` condition, which Node does
 * not set, and its classes are other classes than the CommonJS ones users' `rxjs` resolves to.
 */
interface RxValues {
  readonly Observable: typeof Observable;
  readonly Subject: typeof Subject;
  readonly asyncScheduler: typeof asyncScheduler;
}

const require = createRequire(import.meta.url);
let loaded: RxValues | undefined;

/** RxJS's `Observable`, `Subject` and `asyncScheduler`, loaded (synchronously) on the first call. */
export function rx(): RxValues {
  loaded ??= {
    Observable: (require('rxjs/internal/Observable') as RxValues).Observable,
    Subject: (require('rxjs/internal/Subject') as RxValues).Subject,
    asyncScheduler: (require('rxjs/internal/scheduler/async') as RxValues).asyncScheduler,
  };
  return loaded;
}
