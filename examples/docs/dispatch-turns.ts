// docs/dispatch.md: a turn of calls three ways — all at once, as they finish, as an operator.
import type { Observable } from 'rxjs';
import type { Dispatcher, ProposedCall, ToolCallResult } from 'switchyard';

declare const calls: readonly ProposedCall[];
declare const calls$: Observable<ProposedCall>;
declare const dispatcher: Dispatcher;
declare const signal: AbortSignal;
declare function sendToModel(result: ToolCallResult): void;

// #region turns
import { dispatchCalls, dispatchTurn, streamTurn } from 'switchyard';

const results = await dispatchTurn(calls, { dispatcher, maxConcurrentTools: 8, signal });
for await (const result of streamTurn(calls, { dispatcher })) sendToModel(result);
calls$.pipe(dispatchCalls({ dispatcher })).subscribe(sendToModel);

// #endregion turns

export { results };
