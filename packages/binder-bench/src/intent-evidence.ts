/** What the lexical binder can read off an intent without a model. */
export interface IntentEvidence {
  /** Numbers in order of appearance, with the words just before each (lower case). */
  readonly numbers: readonly { readonly value: number; readonly before: string }[];
  /** Text in single, double or typographic quotes. */
  readonly quoted: readonly string[];
  /** Calendar dates as `YYYY-MM-DD`. */
  readonly dates: readonly string[];
  /**
   * Runs of capitalised words not starting a sentence, with a trailing region code or one-word
   * country ("New York City", "Newark, NJ", "Toronto, Canada").
   */
  readonly names: readonly string[];
  readonly emails: readonly string[];
  /** `http(s)://` addresses, without trailing punctuation. */
  readonly urls: readonly string[];
  /** The intent in lower case with single spaces, for enum and keyword look-ups. */
  readonly lower: string;
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const WORDS: Readonly<Record<string, number>> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};
const QUOTED = /(?:^|[\s(:,[])(?:"([^"]+)"|'([^']+)'|“([^”]+)”|‘([^’]+)’)(?=$|[\s).,;:!?\]])/g;
const ISO_DATE = /\b(\d{4})-(\d{2})-(\d{2})\b/g;
const WRITTEN_DATE = new RegExp(
  `\\b(${MONTHS.join('|')})\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`,
  'gi',
);
const NUMBER =
  /(?<![\w.])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w])|(?<![\w.])-?\d+(?:\.\d+)?(?![\w-])/g;
const NUMBER_WORD = new RegExp(`\\b(${Object.keys(WORDS).join('|')})\\b`, 'gi');
const NAME =
  /(?<![.!?]\s|^|[\p{L}\p{N}])\p{Lu}[\p{L}\p{N}'’-]*(?:\s+(?:of\s+|de\s+)?\p{Lu}[\p{L}\p{N}'’-]*)*(?:,\s+(?:\p{Lu}{2}(?![\p{L}])|\p{Lu}\p{Ll}+(?![\p{L}]|\s+\p{Lu})))?/gu;
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const URL_TEXT = /https?:\/\/[^\s'"<>]+/g;

const pad = (value: number) => String(value).padStart(2, '0');

function datesOf(intent: string): string[] {
  const dates = [...intent.matchAll(ISO_DATE)].map((match) => match[0]);
  for (const match of intent.matchAll(WRITTEN_DATE)) {
    const month = MONTHS.indexOf(match[1]!.toLowerCase()) + 1;
    dates.push(`${match[3]}-${pad(month)}-${pad(Number(match[2]))}`);
  }
  return dates;
}

function wordsBefore(intent: string, index: number): string {
  return intent.slice(Math.max(0, index - 40), index).toLowerCase();
}

function numbersOf(intent: string): { value: number; before: string; index: number }[] {
  // Dates are bound as dates, never as three numbers.
  const blank = (date: string) => ' '.repeat(date.length);
  const masked = intent.replace(ISO_DATE, blank).replace(WRITTEN_DATE, blank);
  const found = [...masked.matchAll(NUMBER)].map((match) => ({
    value: Number(match[0].replaceAll(',', '')),
    before: wordsBefore(intent, match.index),
    index: match.index,
  }));
  for (const match of masked.matchAll(NUMBER_WORD)) {
    found.push({
      value: WORDS[match[1]!.toLowerCase()]!,
      before: wordsBefore(intent, match.index),
      index: match.index,
    });
  }
  return found.sort((a, b) => a.index - b.index);
}

/** Reads numbers, quoted text, dates, names, e-mail and web addresses off `intent`. Linear in its length. */
export function intentEvidence(intent: string): IntentEvidence {
  const quoted = [...intent.matchAll(QUOTED)].map(
    (match) => match[1] ?? match[2] ?? match[3] ?? match[4] ?? '',
  );
  const names = [...intent.matchAll(NAME)]
    .map((match) => match[0])
    .filter((name) => !MONTHS.includes(name.toLowerCase()));
  return {
    numbers: numbersOf(intent).map(({ value, before }) => ({ value, before })),
    quoted,
    dates: datesOf(intent),
    names,
    emails: [...intent.matchAll(EMAIL)].map((match) => match[0]),
    urls: [...intent.matchAll(URL_TEXT)].map((match) => match[0].replace(/[.,;:!?)]+$/, '')),
    lower: intent.toLowerCase().replace(/\s+/g, ' '),
  };
}
