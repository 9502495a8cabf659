import { writeFileSync } from 'node:fs';

// A 5×7 bitmap font for the letters and digits the OCR tests draw.
const GLYPHS: Readonly<Record<string, readonly string[]>> = {
  H: ['10001', '10001', '10001', '11111', '10001', '10001', '10001'],
  E: ['11111', '10000', '10000', '11110', '10000', '10000', '11111'],
  L: ['10000', '10000', '10000', '10000', '10000', '10000', '11111'],
  O: ['01110', '10001', '10001', '10001', '10001', '10001', '01110'],
  W: ['10001', '10001', '10001', '10101', '10101', '10101', '01010'],
  R: ['11110', '10001', '10001', '11110', '10100', '10010', '10001'],
  D: ['11110', '10001', '10001', '10001', '10001', '10001', '11110'],
  '4': ['00010', '00110', '01010', '10010', '11111', '00010', '00010'],
  '2': ['01110', '10001', '00001', '00010', '00100', '01000', '11111'],
  ' ': ['00000', '00000', '00000', '00000', '00000', '00000', '00000'],
};

/**
 * Draws lines of text, black on white, each font pixel a `scale`-sized square, and writes them as
 * a binary PGM (P5) image, which tesseract reads directly.
 */
export function renderTextImage(path: string, lines: readonly string[], scale = 6): void {
  const columns = Math.max(...lines.map((line) => line.length)) * 6 + 4;
  const rows = lines.length * 10 + 4;
  const width = columns * scale;
  const height = rows * scale;
  const pixels = new Uint8Array(width * height).fill(255);
  lines.forEach((line, lineIndex) => {
    [...line].forEach((character, charIndex) => {
      const glyph = GLYPHS[character];
      if (glyph === undefined) throw new Error(`no glyph for ${JSON.stringify(character)}`);
      glyph.forEach((row, y) => {
        [...row].forEach((bit, x) => {
          if (bit !== '1') return;
          for (let dy = 0; dy < scale; dy += 1) {
            for (let dx = 0; dx < scale; dx += 1) {
              const left = (2 + charIndex * 6 + x) * scale + dx;
              const top = (2 + lineIndex * 10 + y) * scale + dy;
              pixels[top * width + left] = 0;
            }
          }
        });
      });
    });
  });
  writeFileSync(path, Buffer.concat([Buffer.from(`P5\n${width} ${height}\n255\n`), pixels]));
}
