import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { canonicalHash } from '../tools/canonical-json.js';

/**
 * How a journal recognises a call in a later run. `call_id`: by its id, for hosts that hand the
 * same calls back with the same ids, unique in the run as providers' ids are (a LangGraph node
 * replayed after an interrupt, a framework step run again); the iteration is left out, since a
 * host resumed in another process counts its steps afresh. `position`: by where it stands
 * (iteration and place in the turn), for a run whose model turns the journal replays, where ids
 * may be new (text-mode calls get fresh ids) or repeat (models that number calls per turn).
 */
export type CallIdentity = 'call_id' | 'position';

/**
 * The key of a call in its run's journal: its identity, its tool and a hash of its arguments, so
 * a record (an outcome, a decision) never applies to another call or to changed arguments.
 */
export function callKeyOf(call: ToolCallEnvelope, identity: CallIdentity): string {
  const { turn } = call;
  const where =
    identity === 'position' ? `p${turn.iteration}.${turn.emitOrder}` : `c.${call.callId}`;
  // Canonical form 1: the keys journals already hold must still find their calls after an upgrade
  // (a call in doubt must be recognised, never run again).
  return `${where}#${call.toolName}#${canonicalHash(call.toolArgs, 1).slice(0, 32)}`;
}
