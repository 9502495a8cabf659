// docs/detectors.md: the native and text detectors, pushed by hand and piped from a stream.
import type { Observable } from 'rxjs';
import type { ToolRegistry } from 'switchyard';
import type { ToolCallDelta } from 'switchyard/streams';

declare const registry: ToolRegistry;
declare const deltas$: Observable<ToolCallDelta>;

// #region native
import { createNativeDetector, type DetectorEvent } from 'switchyard/detectors';

const events: DetectorEvent[] = [];
const detector = createNativeDetector({
  toolNames: registry.names(),
  resolveName: (name) => registry.resolve(name)?.name, // accept provider-safe aliases
  onEvent: (event) => events.push(event),
});
detector.push({ type: 'call_start', key: '0', id: 'call_a', name: 'read' });
detector.push({ type: 'call_arguments', key: '0', fragment: '{"path": ' });
detector.push({ type: 'call_arguments', key: '0', fragment: '"a.md"}' });
detector.push({ type: 'finish', reason: 'tool_calls', safe: true });
detector.end();

// events: candidate_opened, candidate_promoted
//   { call: { id: 'call_a', name: 'read', arguments: { path: 'a.md' } }, emitOrder: 0 }
// #endregion native

// #region text
import { createTextDetector } from 'switchyard/detectors';

const text = createTextDetector({
  toolNames: ['read', 'edit'],
  onEvent: (event) => events.push(event),
});
text.pushText(
  'Let me look.\nread({ path: "a.md" })\n<tool_call>\nedit({ path: "b.md", content: <<EOF\n',
);
text.pushText('# Title\nEOF\n})\n</tool_call>\n');
text.end();

// text 'Let me look.\n', candidate_opened/promoted (read), text '\n',
// candidate_opened (toolName ''), candidate_promoted (edit, content '# Title'), text '\n'
// #endregion text

// #region operator
import { detectToolCalls } from 'switchyard/detectors';

const events$ = deltas$.pipe(
  detectToolCalls((onEvent) => createNativeDetector({ toolNames: registry.names(), onEvent })),
);

// #endregion operator

export { events$ };
