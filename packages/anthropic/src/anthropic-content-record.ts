import type { Anthropic } from '@anthropic-ai/sdk';

type StreamEvent = Anthropic.Messages.RawMessageStreamEvent;
type Block = Record<string, unknown> & { type: string };

/** Blocks the neutral transcript rebuilds on its own: text and client tool calls. */
const REBUILDABLE = new Set(['text', 'tool_use']);

/**
 * The content blocks of one streamed message, put back together from the events the way the API
 * would have returned them whole: text, thinking and signatures appended, citations collected, a
 * tool's streamed JSON parsed into its `input`, hosted tool results as they came. A turn that
 * holds anything but text and client tool calls (a server tool and its result, thinking) must
 * be sent back verbatim; so must a paused turn, for the API to carry on with it.
 */
export class AnthropicContentRecord {
  private readonly blocks: Block[] = [];
  /** Streamed tool input JSON, by block index. */
  private readonly json = new Map<number, string>();

  push(event: StreamEvent): void {
    switch (event.type) {
      case 'content_block_start':
        this.blocks[event.index] = { ...(event.content_block as unknown as Block) };
        return;
      case 'content_block_delta':
        this.apply(event.index, event.delta);
        return;
      case 'content_block_stop':
        this.close(event.index);
        return;
      default:
        return;
    }
  }

  /** Whether the message can only be replayed verbatim. */
  needsReplay(paused: boolean): boolean {
    return (
      paused || this.blocks.some((block) => block !== undefined && !REBUILDABLE.has(block.type))
    );
  }

  /** The blocks in order, as content block params. */
  content(): Anthropic.Messages.ContentBlockParam[] {
    return this.blocks.filter(
      (block) => block !== undefined,
    ) as unknown as Anthropic.Messages.ContentBlockParam[];
  }

  private apply(index: number, delta: Anthropic.Messages.RawContentBlockDelta): void {
    const block = this.blocks[index];
    if (block === undefined) return;
    switch (delta.type) {
      case 'text_delta':
        block.text = `${String(block.text ?? '')}${delta.text}`;
        return;
      case 'input_json_delta':
        this.json.set(index, `${this.json.get(index) ?? ''}${delta.partial_json}`);
        return;
      case 'thinking_delta':
        block.thinking = `${String(block.thinking ?? '')}${delta.thinking}`;
        return;
      case 'signature_delta':
        block.signature = delta.signature;
        return;
      case 'citations_delta': {
        const citations = Array.isArray(block.citations) ? block.citations : [];
        block.citations = [...citations, delta.citation];
        return;
      }
      default:
        return;
    }
  }

  private close(index: number): void {
    const block = this.blocks[index];
    const text = this.json.get(index);
    if (block === undefined || text === undefined || text === '') return;
    try {
      block.input = JSON.parse(text);
    } catch {
      // Broken input (a cut-off block) stays as the block opened; such a turn is retracted.
    }
  }
}
