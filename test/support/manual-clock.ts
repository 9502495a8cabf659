/** A clock in ms that the test sets or moves by hand. */
export function manualClock(start = 0): {
  now: () => number;
  advance: (ms: number) => void;
  set: (ms: number) => void;
} {
  let time = start;
  return {
    now: () => time,
    advance: (ms) => {
      time += ms;
    },
    set: (ms) => {
      time = ms;
    },
  };
}
