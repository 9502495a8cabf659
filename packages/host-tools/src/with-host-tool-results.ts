import type { Next, ToolCallEnvelope, ToolCaller, ToolCallResult } from 'switchyard';
import { attachLayer } from 'switchyard/middleware';
import { isHostRefusal } from './host-refusal.js';

const LAYER = 'with_host_tool_results';

interface OcrValue {
  readonly _type: 'structured_text';
  readonly backend: unknown;
  readonly source: unknown;
  readonly stats: unknown;
}

function isOcrValue(value: unknown): value is OcrValue {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { _type?: unknown })._type === 'structured_text' &&
    'backend' in value
  );
}

/**
 * Lifts what host tools report on their values onto the result, for the layers above and the
 * application: a refused call (a path or command outside its scope) becomes a `scope_violation`
 * result with category `permission_denied` and its typed `denial`; a `vision_ocr` result records
 * its OCR metadata (`backend`, `source`, `stats`) on `audit.vision_ocr`. Other results pass as
 * they are.
 *
 * Layer entry: `{ name: 'with_host_tool_results', status: 'refused' | 'ocr' }`.
 *
 * @example
 * createDispatcher({ registry, caller: composeToolCallers([withAuditLog('local'), withHostToolResults()]) });
 */
export function withHostToolResults(): ToolCaller {
  async function with_host_tool_results(
    call: ToolCallEnvelope,
    next: Next,
  ): Promise<ToolCallResult> {
    const result = await next(call);
    const value = result.result;
    if (isHostRefusal(value)) {
      const refused: ToolCallResult = {
        ...result,
        ok: false,
        status: 'scope_violation',
        errorCategory: 'permission_denied',
        denial: value.denial,
      };
      return attachLayer(refused, { name: LAYER, status: 'refused', gate: value.denial.gate });
    }
    if (result.ok && isOcrValue(value)) {
      const metadata = { backend: value.backend, source: value.source, stats: value.stats };
      return attachLayer(result, { name: LAYER, status: 'ocr' }, { vision_ocr: metadata });
    }
    return result;
  }
  return with_host_tool_results;
}
