import type { MessageContent } from '@langchain/core/messages';
import type { ContentBlock } from 'switchyard/dispatch';

/**
 * A tool message's content as Switchyard's content blocks, which make the observation the model
 * reads: text as it is, any other block (an image, a file) as its JSON.
 */
export function contentBlocksOf(content: MessageContent): ContentBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((block) =>
    block.type === 'text' && typeof block.text === 'string'
      ? { type: 'text', text: block.text }
      : { type: 'text', text: JSON.stringify(block) },
  );
}
