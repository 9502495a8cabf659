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
  /** Argument fragments in arrival order; compacted to one string by `text()`. */
  private readonly fragments: string[] = [];
  /** The full arguments the provider repeated on `call_end`; they win over the fragments. */
  private finalText: string | undefined;
  private preview: PartialJsonPreview | undefined;
  /** Decided: promoted (maybe still waiting for earlier calls) or retracted. */
  settled = false;
  /** Fragments arrived since the last partial update. */
  dirty = false;
  /** Set when the call is complete and valid; its promotion waits for earlier calls. */
  promotion: { readonly args: JsonObject; readonly rawInput: string } | undefined;

  /** Every candidate event of a native call says so. */
  readonly source = 'native';

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

  /** The argument text so far (joins the fragments once and keeps the result). */
  text(): string {
    if (this.finalText !== undefined) return this.finalText;
    if (this.fragments.length > 1) {
      const joined = this.fragments.join('');
      this.fragments.length = 0;
      this.fragments.push(joined);
    }
    return this.fragments[0] ?? '';
  }

  /** A best-effort parse of the unfinished arguments. */
  partialInput(text: string): JsonValue | undefined {
    this.preview ??= new PartialJsonPreview();
    return this.preview.preview(text);
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
