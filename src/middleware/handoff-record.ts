import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { HandoffArtifactError } from '../errors.js';
import { isPlainObject } from '../tools/json.js';

/** Who a handoff goes to. */
export type HandoffTargetKind = 'persona' | 'human';

/** A handoff to another persona, as `withHandoffArtifact` records it on `audit.handoff`. */
export interface HandoffRecord {
  readonly handoffId: string;
  /** Who should pick the work up: a persona's name, or a human's id when `targetKind` is `human`. */
  readonly targetPersona: string;
  /** Whether the target is a persona (the default) or a human. */
  readonly targetKind: HandoffTargetKind;
  /** Why the work is handed over, when the payload says. */
  readonly reason: string | null;
  /** Who hands it over; the tool's own value, else the layer's `source`, else null. */
  readonly sourcePersona: string | null;
  readonly task: string | null;
  readonly summary: string | null;
  readonly artifacts: readonly unknown[];
  /** A replacement execution policy for the target, kept as given for the handoff dispatcher. */
  readonly policyOverride?: Readonly<Record<string, unknown>>;
  /** The payload as the tool returned it. */
  readonly payload: Readonly<Record<string, unknown>>;
  readonly toolName: string;
  readonly toolCallId: string;
  /** ISO time the record was made. */
  readonly createdAt: string;
}

/** The value under `camelName` or its snake_case spelling (tools built on JSON often use it). */
function field(payload: Record<string, unknown>, camelName: string): unknown {
  if (Object.hasOwn(payload, camelName)) return payload[camelName];
  const snake = camelName.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
  return Object.hasOwn(payload, snake) ? payload[snake] : undefined;
}

function optionalString(
  payload: Record<string, unknown>,
  name: string,
  toolName: string,
): string | null {
  const value = field(payload, name);
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') {
    throw new HandoffArtifactError(
      `handoff ${name} must be a string; got ${typeof value}`,
      toolName,
    );
  }
  return value;
}

/**
 * The target of a payload: `targetPersonaOrHuman: { kind: 'persona' | 'human', id }` (the
 * reference system's shape, in either spelling), else a plain `targetPersona` string.
 */
function targetOf(
  payload: Record<string, unknown>,
  toolName: string,
): { id: string | null; kind: HandoffTargetKind } {
  const target = field(payload, 'targetPersonaOrHuman');
  if (target === undefined || target === null) {
    return { id: optionalString(payload, 'targetPersona', toolName), kind: 'persona' };
  }
  if (!isPlainObject(target)) {
    throw new HandoffArtifactError('handoff target_persona_or_human must be an object', toolName);
  }
  const kind = target.kind ?? 'persona';
  if (kind !== 'persona' && kind !== 'human') {
    throw new HandoffArtifactError(
      `handoff target kind must be "persona" or "human"; got ${JSON.stringify(kind)}`,
      toolName,
    );
  }
  return { id: optionalString(target, 'id', toolName), kind };
}

/**
 * Reads a handoff payload into a `HandoffRecord`. Fields are read in camelCase or snake_case
 * (`targetPersona` / `target_persona`); the target may also be given as
 * `target_persona_or_human: { kind: 'persona' | 'human', id }`. Throws `HandoffArtifactError`
 * when the target is missing or a field has the wrong type.
 */
export function normalizeHandoff(
  payload: Readonly<Record<string, unknown>>,
  context: { call: ToolCallEnvelope; source: string | undefined; createdAt: string },
): HandoffRecord {
  const { call } = context;
  const target = targetOf(payload, call.toolName);
  if (target.id === null || target.id.trim() === '') {
    throw new HandoffArtifactError('a handoff needs a non-empty targetPersona', call.toolName);
  }
  const artifacts = field(payload, 'artifacts') ?? [];
  if (!Array.isArray(artifacts)) {
    throw new HandoffArtifactError('handoff artifacts must be an array', call.toolName);
  }
  const policyOverride = field(payload, 'policyOverride');
  if (policyOverride !== undefined && policyOverride !== null && !isPlainObject(policyOverride)) {
    throw new HandoffArtifactError('handoff policyOverride must be an object', call.toolName);
  }
  const id =
    optionalString(payload, 'handoffId', call.toolName) ??
    optionalString(payload, 'id', call.toolName);
  return {
    handoffId: id ?? `handoff_${call.callId}`,
    targetPersona: target.id,
    targetKind: target.kind,
    reason: optionalString(payload, 'reason', call.toolName),
    sourcePersona:
      optionalString(payload, 'sourcePersona', call.toolName) ?? context.source ?? null,
    task: optionalString(payload, 'task', call.toolName),
    summary: optionalString(payload, 'summary', call.toolName),
    artifacts: [...artifacts],
    ...(isPlainObject(policyOverride) ? { policyOverride } : {}),
    payload,
    toolName: call.toolName,
    toolCallId: call.callId,
    createdAt: context.createdAt,
  };
}
