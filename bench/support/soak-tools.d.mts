export function echo(args: { value?: unknown }): unknown;
export function fail(args: { value?: unknown }): never;
export function hang(): Promise<never>;
export function crash(): never;
export function uncaught(): Promise<never>;
