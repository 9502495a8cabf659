import type { JsonObject } from '../tools/json.js';
import { CallScanner } from './detect/call-scanner.js';
import {
  type CandidateIdentity,
  openedEvent,
  promotedEvent,
  retractedEvent,
} from './detect/candidate-events.js';
import { type DetectorCommonOptions, detectorContext } from './detect/detector-options.js';
import { readTaggedBody } from './detect/tagged-body.js';
import { isIndent, isNameStart, nameLength } from './detect/text-chars.js';
import {
  DONE_CLOSE,
  DONE_OPEN,
  doneCloseAt,
  fenceLineEnd,
  LONGEST_HELD_LINE,
  lineTagAt,
  partialTagAtEnd,
  TOOL_CALL_CLOSE,
  TOOL_CALL_OPEN,
  USER_RESPONSE_CLOSE,
  USER_RESPONSE_OPEN,
} from './detect/text-markers.js';
import type { RetractionReason, ToolCallDetector } from './detector-events.js';
import { parseTextCall } from './text-call-parser.js';
import type { ToolCallDelta } from './tool-call-delta.js';

/** Options of `createTextDetector`. */
export type TextDetectorOptions = DetectorCommonOptions;

/** The text detector: a `ToolCallDetector` that also takes raw text. */
export interface TextDetector extends ToolCallDetector {
  /** Feeds a piece of the model's text (the same as a `text` delta). */
  pushText(text: string): void;
}

/** A text-mode call being read: its id, name, text so far and where it ends. */
interface TextCandidate extends CandidateIdentity {
  readonly source: 'text';
  readonly toolCallId: string;
  /** Canonical name of a bare call; `''` for a tagged block until its body is read. */
  readonly toolName: string;
  readonly tagged: boolean;
  /** The call's text in arrival order; joined once when the call ends. */
  readonly parts: string[];
  readonly scanner: CallScanner;
}

const FACTORY = 'createTextDetector';

/**
 * Detects tool calls in the text of a model without native tool calling, while it streams.
 *
 * At the start of a line (after spaces or tabs), outside ``` fences: `<tool_call>` opens a
 * tagged candidate that ends at `</tool_call>`, and `name(` opens a bare candidate when `name`
 * is a known tool; it ends at the `)` that balances its `(`. Strings, comments and heredoc
 * values (`<<TAG` … a line starting with `TAG`) never end a call early. Text in the middle of a
 * line never opens one, and a line start that could still become a tag, a fence or a name waits
 * for the next chunk. Every candidate emits `candidate_opened` then `candidate_promoted` or
 * `candidate_retracted` (with the exact messages of the text-mode protocol). Text outside calls
 * goes out as `text` events, in the `user_response` channel inside `<user_response>` …
 * `</user_response>`; a `<done>…</done>` line emits `done`.
 *
 * `end()` (or a `finish` delta) applies the end-of-text rules: an open `<tool_call>` is
 * retracted ("<tool_call> block did not close before the response ended."), an open bare call
 * gets one last parse and is promoted or retracted with the parser's message.
 *
 * @throws InvalidOptionError naming the option when an option is invalid.
 * @example
 * const detector = createTextDetector({ toolNames: ['read'], onEvent: (e) => events.push(e) });
 * detector.pushText('Let me look.\nread({ path: "a.md" })\n');
 * detector.end();
 * // text 'Let me look.\n', candidate_opened, candidate_promoted {arguments: {path: 'a.md'}}, text '\n'
 */
export function createTextDetector(options: TextDetectorOptions): TextDetector {
  const context = detectorContext(options, FACTORY);
  const { emit } = context;

  /** Text held back from the last chunk: a line start that is not yet decided. */
  let held = '';
  let atLineStart = true;
  let inFence = false;
  let channel: 'prose' | 'user_response' = 'prose';
  let candidate: TextCandidate | undefined;
  let promotedCount = 0;
  let ended = false;

  function feed(chunk: string): void {
    if (ended || chunk === '') return;
    const text = held === '' ? chunk : held + chunk;
    held = '';
    let index = 0;
    while (index < text.length) {
      index = candidate === undefined ? scanIdle(text, index) : scanCandidate(text, index);
    }
  }

  function emitText(text: string, start: number, end: number): void {
    if (end > start) emit({ type: 'text', text: text.slice(start, end), channel });
  }

  /** Reads prose from `from`; returns where a candidate starts, or the end of the text. */
  function scanIdle(text: string, from: number): number {
    const { length } = text;
    let index = from;
    let proseStart = from;
    /** The next `</user_response>` at or after `index`; -2 until searched. */
    let nextClose = -2;
    while (index < length) {
      if (!atLineStart) {
        const lineEnd = text.indexOf('\n', index);
        if (channel === 'user_response' && !inFence) {
          if (nextClose === -2 || (nextClose >= 0 && nextClose < index)) {
            nextClose = text.indexOf(USER_RESPONSE_CLOSE, index);
          }
          const close = nextClose;
          if (close >= 0 && (lineEnd < 0 || close < lineEnd)) {
            emitText(text, proseStart, close);
            channel = 'prose';
            index = close + USER_RESPONSE_CLOSE.length;
            proseStart = index;
            continue;
          }
          const partial = lineEnd < 0 ? partialTagAtEnd(text, index, USER_RESPONSE_CLOSE) : -1;
          if (partial >= 0) return hold(text, proseStart, partial, false);
        }
        if (lineEnd < 0) break;
        index = lineEnd + 1;
        atLineStart = true;
        continue;
      }
      let first = index;
      while (first < length && isIndent(text.charCodeAt(first))) first += 1;
      if (first >= length) return hold(text, proseStart, index, true);
      const code = text.charCodeAt(first);
      if (code === 0x60) {
        const fenceEnd = fenceLineEnd(text, first);
        if (fenceEnd === -1) return hold(text, proseStart, index, true);
        if (fenceEnd >= 0) {
          inFence = !inFence;
          index = fenceEnd;
          continue;
        }
      }
      atLineStart = false;
      if (inFence) {
        index = first;
        continue;
      }
      if (code === 0x3c) {
        const tag = lineTagAt(text, first);
        if (tag === 'wait') return hold(text, proseStart, index, true);
        if (tag === TOOL_CALL_OPEN) {
          emitText(text, proseStart, first);
          openCandidate('', true);
          return first + TOOL_CALL_OPEN.length;
        }
        if (tag === DONE_OPEN) {
          const close = doneCloseAt(text, first);
          if (close === -1) return hold(text, proseStart, index, true);
          if (close >= 0) {
            emitText(text, proseStart, first);
            emit({ type: 'done', marker: text.slice(first + DONE_OPEN.length, close).trim() });
            index = close + DONE_CLOSE.length;
            proseStart = index;
            continue;
          }
        }
        const toChannel = tag === USER_RESPONSE_OPEN ? 'user_response' : 'prose';
        if ((tag === USER_RESPONSE_OPEN || tag === USER_RESPONSE_CLOSE) && channel !== toChannel) {
          emitText(text, proseStart, first);
          channel = toChannel;
          index = first + tag.length;
          proseStart = index;
          continue;
        }
      } else if (isNameStart(code)) {
        const nameEnd = first + nameLength(text, first);
        if (nameEnd >= length && nameEnd - first <= LONGEST_HELD_LINE) {
          return hold(text, proseStart, index, true);
        }
        const toolName =
          text.charCodeAt(nameEnd) === 0x28 && nameEnd - first <= LONGEST_HELD_LINE
            ? context.resolve(text.slice(first, nameEnd))
            : undefined;
        if (toolName !== undefined) {
          emitText(text, proseStart, first);
          openCandidate(toolName, false).parts.push(text.slice(first, nameEnd + 1));
          return nameEnd + 1;
        }
        index = nameEnd;
        continue;
      }
      index = first;
    }
    emitText(text, proseStart, length);
    return length;
  }

  /** Holds the rest of the text, from `at`, until the next chunk decides it. */
  function hold(text: string, proseStart: number, at: number, lineStart: boolean): number {
    emitText(text, proseStart, at);
    held = text.slice(at);
    atLineStart = lineStart;
    return text.length;
  }

  function openCandidate(toolName: string, tagged: boolean): TextCandidate {
    const opened: TextCandidate = {
      source: 'text',
      toolCallId: context.generateCallId(),
      toolName,
      tagged,
      parts: [],
      scanner: tagged ? CallScanner.forTaggedBlock(TOOL_CALL_CLOSE) : CallScanner.forBareCall(),
    };
    candidate = opened;
    emit(openedEvent(opened, false));
    return opened;
  }

  /** Reads the open candidate's text; settles it when it ends. */
  function scanCandidate(text: string, from: number): number {
    const current = candidate!;
    const end = current.scanner.scan(text, from);
    if (end < 0) {
      current.parts.push(from === 0 ? text : text.slice(from));
      return text.length;
    }
    current.parts.push(text.slice(from, end));
    const callText = current.parts.join('');
    candidate = undefined;
    if (current.tagged) {
      settleTagged(current, callText.slice(0, callText.length - TOOL_CALL_CLOSE.length).trim());
      // The closing tag ends the block like a line break: a bare call may follow at once.
      atLineStart = true;
    } else {
      settleBare(current, callText, 'incomplete');
    }
    return end;
  }

  /** A closed `<tool_call>` block; its body decides. A retraction keeps the empty name. */
  function settleTagged(current: TextCandidate, body: string): void {
    const read = readTaggedBody(body, context.resolve);
    if (read.ok) {
      promote({ ...current, toolName: read.toolName }, read.args, body);
    } else {
      emit(retractedEvent(current, { reason: read.reason, error: read.message, rawInput: body }));
    }
  }

  /** A bare call whose `)` arrived, or that was still open when the text ended. */
  function settleBare(current: TextCandidate, callText: string, cut: RetractionReason): void {
    const parsed = parseTextCall(callText);
    if (parsed.ok) {
      promote(current, parsed.arguments, callText);
    } else {
      const reason = parsed.incomplete ? cut : parsed.reason;
      emit(retractedEvent(current, { reason, error: parsed.message, rawInput: callText }));
    }
  }

  function promote(identity: CandidateIdentity, args: JsonObject, rawInput: string): void {
    emit(promotedEvent(identity, { args, emitOrder: promotedCount, rawInput }));
    promotedCount += 1;
  }

  function finish(safe: boolean): void {
    if (ended) return;
    ended = true;
    const open = candidate;
    candidate = undefined;
    if (open === undefined) {
      if (held !== '') emit({ type: 'text', text: held, channel });
    } else if (open.tagged) {
      const error = '<tool_call> block did not close before the response ended.';
      const reason = safe ? 'incomplete' : 'cut_off';
      emit(retractedEvent(open, { reason, error, rawInput: open.parts.join('').trim() }));
    } else {
      settleBare(open, open.parts.join(''), safe ? 'incomplete' : 'cut_off');
    }
    held = '';
  }

  return {
    push(delta: ToolCallDelta): void {
      if (delta.type === 'text') feed(delta.text);
      else if (delta.type === 'finish') finish(delta.safe);
    },
    pushText: feed,
    end: () => finish(true),
  };
}
