import { isPlainObject, type JsonObject, type JsonValue } from '../../tools/json.js';
import type { RetractionReason } from '../detector-events.js';
import { PartialJsonPreview } from './partial-json-preview.js';
import { invalidJsonMessage, notAnObjectMessage } from './retraction-messages.js';

/** What the arguments of a finished native call came to. */
export type NativeVerdict =
  | { readonly ok: true; readonly args: JsonObject }
  | { readonly ok: false; readonly reason: RetractionReason; readonly message: string };

/**
 * One native call being assembled: its identity, its argument fragments (collected, joined
 * once when the call finishes or a partial update needs the text), and where it stands.
 */
export class NativeCall {
  /** Every candidate event of a native call says so. */
  readonly source = 'native';
  /** Argument fragments in arrival order, joined once when the call ends. */
  private readonly fragments: string[] = [];
  /** The full arguments the provider repeated on `call_end`; they win over the fragments. */
  private finalText: string | undefined;
  /** Partial updates: the fragments shown so far, and how many of `fragments` that is. */
  private preview: PartialJsonPreview | undefined;
  private previewText = '';
  private previewed = 0;
  /** Decided: promoted (maybe still waiting for earlier calls) or retracted. */
  settled = false;
  /** Fragments arrived since the last partial update. */
  dirty = false;
  /** Set when the call is complete and valid; its promotion waits for earlier calls. */
  promotion: { readonly args: JsonObject; readonly rawInput: string } | undefined;

  constructor(
    readonly toolCallId: string,
    /** The canonical name (or the name as sent, when unknown or provider-native). */
    readonly toolName: string,
    readonly providerNative: boolean,
  ) {}

  append(fragment: string): void {
    if (fragment !== '') this.fragments.push(fragment);
  }

  complete(fullArguments: string | undefined): void {
    if (fullArguments !== undefined) this.finalText = fullArguments;
  }

  /** The complete argument text. */
  text(): string {
    return this.finalText ?? this.fragments.join('');
  }

  /**
   * The text so far and a best-effort parse of it. Only the fragments that arrived since the
   * last update are scanned, and the text grows by concatenation (a rope in V8: each update costs
   * what arrived, not the length of the text, however long the arguments get).
   */
  partial(): { readonly text: string; readonly input: JsonValue | undefined } {
    this.preview ??= new PartialJsonPreview();
    if (this.previewed < this.fragments.length) {
      const fresh =
        this.previewed === this.fragments.length - 1
          ? this.fragments[this.previewed]!
          : this.fragments.slice(this.previewed).join('');
      this.previewed = this.fragments.length;
      this.preview.feed(fresh);
      this.previewText += fresh;
    }
    return { text: this.previewText, input: this.preview.value() };
  }

  /**
   * Parses the complete arguments. Empty arguments mean `{}`: the provider closed the call
   * normally without sending any (Anthropic streams a tool without input that way).
   */
  verdict(text: string): NativeVerdict {
    if (text.trim() === '') return { ok: true, args: {} };
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      return {
        ok: false,
        reason: 'invalid_json',
        message: invalidJsonMessage(this.toolName, (error as Error).message),
      };
    }
    if (!isPlainObject(parsed)) {
      return {
        ok: false,
        reason: 'not_an_object',
        message: notAnObjectMessage(this.toolName, parsed),
      };
    }
    return { ok: true, args: parsed as JsonObject };
  }
}
