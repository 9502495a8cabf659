export function hash64k(args: { rounds: number }): string;
export function echo(args: { value: unknown }): unknown;
export function hang(): Promise<never>;
export default function rawTask(
  task: { kind: 'hash'; rounds: number } | { kind: 'echo'; value: unknown },
): unknown;
