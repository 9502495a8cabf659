/** A box in image pixels. */
export interface BoundingBox {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** One recognised word. `confidence` is tesseract's 0–100. */
export interface OcrToken {
  readonly text: string;
  readonly confidence: number;
  readonly box: BoundingBox;
  readonly block: number;
  readonly line: number;
}

/** A line of words, numbered in reading order across the page. */
export interface OcrLine {
  readonly text: string;
  readonly box: BoundingBox;
  readonly block: number;
  readonly line: number;
  readonly confidence: number;
}

/** A block of lines. */
export interface OcrBlock {
  readonly text: string;
  readonly box: BoundingBox;
  readonly block: number;
}

/** Text read from an image, with its structure. */
export interface OcrStructure {
  readonly text: string;
  readonly blocks: OcrBlock[];
  readonly lines: OcrLine[];
  readonly tokens: OcrToken[];
}

function box(left: string, top: string, width: string, height: string): BoundingBox {
  return { x: Number(left), y: Number(top), width: Number(width), height: Number(height) };
}

const mean = (values: readonly number[]): number =>
  values.length === 0
    ? 0
    : Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 100) / 100;

/**
 * Reads tesseract's TSV output (level, page, block, paragraph, line, word, left, top, width,
 * height, conf, text) into blocks, lines and word tokens. Empty words are dropped; a line or block
 * with no words is left out.
 */
export function parseTesseractTsv(tsv: string): OcrStructure {
  const tokens: OcrToken[] = [];
  const lineBoxes = new Map<string, { box: BoundingBox; block: number }>();
  const blockBoxes = new Map<number, BoundingBox>();
  const lineKeys: string[] = [];
  for (const row of tsv.split('\n').slice(1)) {
    const cells = row.split('\t');
    if (cells.length < 12) continue;
    const [level, , block, paragraph, line, , left, top, width, height, confidence] = cells as [
      string,
      ...string[],
    ];
    const text = cells.slice(11).join('\t').trim();
    const blockNumber = Number(block);
    const key = `${block}.${paragraph}.${line}`;
    if (level === '2')
      blockBoxes.set(
        blockNumber,
        box(left as string, top as string, width as string, height as string),
      );
    if (level === '4') {
      lineBoxes.set(key, {
        box: box(left as string, top as string, width as string, height as string),
        block: blockNumber,
      });
      lineKeys.push(key);
    }
    if (level === '5' && text !== '') {
      tokens.push({
        text,
        confidence: Math.round(Number(confidence) * 100) / 100,
        box: box(left as string, top as string, width as string, height as string),
        block: blockNumber,
        line: lineKeys.indexOf(key) + 1,
      });
    }
  }
  const lines: OcrLine[] = [];
  lineKeys.forEach((key, index) => {
    const words = tokens.filter((token) => token.line === index + 1);
    const facts = lineBoxes.get(key);
    if (words.length === 0 || facts === undefined) return;
    lines.push({
      text: words.map((word) => word.text).join(' '),
      box: facts.box,
      block: facts.block,
      line: index + 1,
      confidence: mean(words.map((word) => word.confidence)),
    });
  });
  const blocks: OcrBlock[] = [];
  for (const [number, blockBox] of blockBoxes) {
    const own = lines.filter((line) => line.block === number);
    if (own.length > 0)
      blocks.push({ text: own.map((line) => line.text).join('\n'), box: blockBox, block: number });
  }
  return { text: blocks.map((block) => block.text).join('\n\n'), blocks, lines, tokens };
}

/** The mean confidence of the tokens (0 when none). */
export function meanConfidence(tokens: readonly OcrToken[]): number {
  return mean(tokens.map((token) => token.confidence));
}
