import type { Anthropic } from '@anthropic-ai/sdk';
import { ModelError } from 'switchyard';
import type { ToolCallDelta } from 'switchyard/streams';
import { AnthropicContentRecord } from './anthropic-content-record.js';
import { isSafeAnthropicStop } from './anthropic-stop-reasons.js';
import { TokenUsage } from './token-usage.js';

type StreamEvent = Anthropic.Messages.RawMessageStreamEvent;

/** The API paused a long turn of server tools; sent back as it is, the turn carries on. */
const PAUSE_TURN = 'pause_turn';
type ContentBlock = Anthropic.Messages.RawContentBlockStartEvent['content_block'];

/** A `tool_use` or `server_tool_use` block being streamed. */
interface CallBlock {
  readonly key: string;
  /** The `input` of `content_block_start`, sent as the arguments when no fragment follows. */
  readonly startInput: unknown;
  fragments: number;
}

/**
 * Turns the raw events of one streamed Anthropic message into `ToolCallDelta`s: `tool_use`
 * blocks become `call_start` (key = block index) / `call_arguments` / `call_end`,
 * `server_tool_use` blocks the same with `providerNative: true`, `text_delta`s `text`, and the
 * stop reason a `finish` (after one `usage` delta) at `message_stop`. A message the neutral
 * transcript cannot rebuild (server tool results, thinking) or that the API paused also yields a
 * `provider_content` delta with its blocks, to be replayed verbatim; a `pause_turn` finish is
 * `paused`.
 *
 * The API closes a block cut by `max_tokens` like any other, so the `call_end` of the most
 * recent call block is held until the message shows the block was whole: the next block opens
 * (released at once) or the stop reason is safe (released at `message_delta`). After an unsafe
 * stop it is never sent, and the `finish` retracts the call as cut off instead of running
 * whatever arguments arrived.
 *
 * @example
 * const translator = new AnthropicDeltaTranslator();
 * for await (const event of await client.messages.create({ ...params, stream: true })) {
 *   for (const delta of translator.push(event)) detector.push(delta);
 * }
 * for (const delta of translator.end()) detector.push(delta);
 */
export class AnthropicDeltaTranslator {
  /** Call blocks by content-block index; other blocks are not tracked. */
  private readonly calls = new Map<number, CallBlock>();
  /** The `call_end` of the last closed call block, not sent until the block is known whole. */
  private heldEnd: ToolCallDelta | undefined;
  /** The latest `stop_reason`, once `message_delta` carried one. */
  private stopReason: string | undefined;
  /** Token counts so far; none until `message_start`. */
  private usage: TokenUsage | undefined;
  /** `message_stop` arrived (or `end` ran): nothing more is translated. */
  private finished = false;
  /** The message's blocks, for a turn that has to be replayed verbatim. */
  private readonly record = new AnthropicContentRecord();

  /** The deltas one event yields, in order (often none). */
  push(event: StreamEvent): ToolCallDelta[] {
    if (this.finished) return [];
    this.record.push(event);
    switch (event.type) {
      case 'message_start':
        this.usage = new TokenUsage(event.message.usage);
        return [];
      case 'content_block_start':
        return [...this.release(), ...this.open(event.index, event.content_block)];
      case 'content_block_delta': {
        const { delta } = event;
        if (delta.type === 'text_delta') {
          return delta.text === '' ? [] : [{ type: 'text', text: delta.text }];
        }
        const call = this.calls.get(event.index);
        if (delta.type !== 'input_json_delta' || call === undefined) return [];
        if (delta.partial_json === '') return [];
        call.fragments += 1;
        return [{ type: 'call_arguments', key: call.key, fragment: delta.partial_json }];
      }
      case 'content_block_stop': {
        const call = this.calls.get(event.index);
        if (call === undefined) return [];
        const released = this.release();
        this.heldEnd = endOf(call);
        return released;
      }
      case 'message_delta': {
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        if (event.usage != null) this.usage = (this.usage ?? new TokenUsage()).update(event.usage);
        if (this.stopReason === undefined) return [];
        if (isSafeAnthropicStop(this.stopReason)) return this.release();
        // The last call may be cut: it gets no call_end, so the unsafe finish retracts it.
        this.heldEnd = undefined;
        return [];
      }
      case 'message_stop':
        return this.finish();
      default:
        // Events this SDK version does not type are skipped, as the SDK itself skips `ping`.
        event satisfies never;
        return [];
    }
  }

  /**
   * The stream ended: the `usage` and `finish` still owed when `message_stop` never came.
   *
   * @throws ModelError (`transient_network`, retryable) when the stream ended before the message
   *   had a stop reason: the response is incomplete, and nothing still open may run.
   */
  end(): ToolCallDelta[] {
    if (this.finished) return [];
    if (this.stopReason === undefined) {
      this.finished = true;
      throw new ModelError('anthropic: the stream ended before the message had a stop reason', {
        provider: 'anthropic',
        category: 'transient_network',
        retryable: true,
      });
    }
    return this.finish();
  }

  private open(index: number, block: ContentBlock): ToolCallDelta[] {
    if (block.type === 'text') return block.text === '' ? [] : [{ type: 'text', text: block.text }];
    if (block.type !== 'tool_use' && block.type !== 'server_tool_use') return [];
    const key = String(index);
    this.calls.set(index, { key, startInput: block.input, fragments: 0 });
    return [
      block.type === 'tool_use'
        ? { type: 'call_start', key, id: block.id, name: block.name }
        : { type: 'call_start', key, id: block.id, name: block.name, providerNative: true },
    ];
  }

  /** The held `call_end`, now that its block is known to be whole. */
  private release(): ToolCallDelta[] {
    const held = this.heldEnd;
    this.heldEnd = undefined;
    return held === undefined ? [] : [held];
  }

  private finish(): ToolCallDelta[] {
    this.finished = true;
    const reason = this.stopReason ?? 'unknown';
    const safe = isSafeAnthropicStop(reason);
    const paused = reason === PAUSE_TURN;
    const deltas: ToolCallDelta[] = safe ? this.release() : [];
    this.heldEnd = undefined;
    if (this.usage !== undefined) deltas.push(this.usage.delta());
    if (safe && this.record.needsReplay(paused)) {
      deltas.push({
        type: 'provider_content',
        content: { provider: 'anthropic', content: this.record.content() },
      });
    }
    deltas.push(
      paused ? { type: 'finish', reason, safe, paused } : { type: 'finish', reason, safe },
    );
    return deltas;
  }
}

function endOf(call: CallBlock): ToolCallDelta {
  // A hosted tool may send its whole input on content_block_start and no fragments.
  const whole =
    call.fragments === 0 &&
    typeof call.startInput === 'object' &&
    call.startInput !== null &&
    Object.keys(call.startInput).length > 0;
  return whole
    ? { type: 'call_end', key: call.key, arguments: JSON.stringify(call.startInput) }
    : { type: 'call_end', key: call.key };
}
