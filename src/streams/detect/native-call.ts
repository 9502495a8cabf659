import { isPlainObject, type JsonObject, type JsonValue } from '../../tools/json.js';
import { PartialJsonPreview } from './partial-json-preview.js';

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
  /** Set when the call is whole; its promotion waits for earlier calls. */
  promotion: { readonly args: JsonObject | string; readonly rawInput: string } | undefined;

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
   * The arguments of the whole call: parsed when they are a JSON object, else the text as it came
   * (the dispatcher refuses it, with a result that says why). Empty arguments mean `{}`: the
   * provider closed the call normally without sending any (Anthropic streams a tool without input
   * that way).
   */
  argumentsOf(text: string): JsonObject | string {
    if (text.trim() === '') return {};
    try {
      const parsed: unknown = JSON.parse(text);
      return isPlainObject(parsed) ? (parsed as JsonObject) : text;
    } catch {
      return text;
    }
  }
}
