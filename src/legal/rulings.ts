/**
 * The rulings on a provision that a document's element carries (sandbox: `rulings`, docs/sandbox.md "Case law under
 * the articles": the Constitutional Court declared the element, or a part of it, unconstitutional), read tolerantly
 * from the untrusted response, and what a ruling means for a citation of the element (`pravo cite`). Pure functions;
 * strings come back raw: renderers sanitize them.
 */
import type { DocumentElement } from '../contract/types.js';
import type { Citation } from '../shared/citations.js';
import { elementEntries } from './documents.js';
import { sentenceAndProposition, type RulingPart } from '../shared/ruling-sentence.js';

/** A ruling as the client reads it from an element's `rulings`. */
export interface RulingView {
  /** `whole`: the element; `part`: only {@link part}. */
  scope: 'whole' | 'part';
  part: RulingPart | null;
  /** The decision's number and year as the source names it (`12`, `2016`). */
  decisionNumber: string;
  decisionYear: string;
  /** The decision in the service, when it is there (`ks-2016-12-13-2015` and its collection). */
  documentId: string | null;
  collection: string | null;
  /** Its date, `YYYY-MM-DD`, when known. */
  date: string | null;
  /** The operative paragraph's excerpt id, when known (`ks-2016-12-13-2015:27`). */
  excerptId: string | null;
  /** Where it was read: `note` (the act's text), `decision` (the operative part). */
  sources: string[];
  /** The text was enacted or amended again after the ruling. */
  laterAmended: boolean;
}

/** A string field, else `undefined`. */
function text(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The rulings of an element (`[]` when it has none or the field is malformed; malformed entries are skipped). */
export function rulingsOf(element: DocumentElement): RulingView[] {
  return elementEntries(element, 'rulings').flatMap((record): RulingView[] => {
    const decisionNumber = text(record, 'decision_number');
    const decisionYear = text(record, 'decision_year');
    if (decisionNumber === undefined || decisionYear === undefined) return [];
    const rawPart = record.part;
    let part: RulingPart | null = null;
    if (typeof rawPart === 'object' && rawPart !== null) {
      const p = rawPart as Record<string, unknown>;
      const partText = text(p, 'text');
      if (partText !== undefined) {
        part = { text: partText };
        for (const key of ['paragraph', 'point', 'letter', 'sentence', 'proposition', 'words'] as const) {
          const v = text(p, key);
          if (v !== undefined) part[key] = v;
        }
      }
    }
    return [
      {
        scope: part === null ? 'whole' : 'part',
        part,
        decisionNumber,
        decisionYear,
        documentId: text(record, 'document_id') ?? null,
        collection: text(record, 'collection') ?? null,
        date: text(record, 'date') ?? null,
        excerptId: text(record, 'excerpt_id') ?? null,
        sources: Array.isArray(record.sources) ? record.sources.filter((s): s is string => typeof s === 'string') : [],
        laterAmended: record.later_amended === true,
      },
    ];
  });
}

/** `Решение № 12 от 2016 г. на Конституционния съд` (the decision as a lawyer names it). */
export function rulingDecisionName(ruling: RulingView): string {
  return `Решение № ${ruling.decisionNumber} от ${ruling.decisionYear} г. на Конституционния съд`;
}

/**
 * One sentence on a ruling, in English with the Bulgarian names: „чл. 79, ал. 2, т. 2 declared unconstitutional by
 * Решение № 12 от 2016 г. на Конституционния съд (2016-10-13)“, with `withId` the decision's `document_id` before the
 * date („(ks-2016-12-13-2015, 2016-10-13)“); with `laterAmended`, that the text was enacted or amended again after it.
 * @param provision how the element is named (`чл. 79`); the part follows it.
 */
export function describeRuling(ruling: RulingView, provision: string, withId = false): string {
  const what = ruling.part === null ? provision : ruling.part.text.startsWith('в частта') ? `${provision} ${ruling.part.text}` : `${provision}, ${ruling.part.text}`;
  const facts = [withId ? ruling.documentId : null, ruling.date].filter((f): f is string => f !== null);
  const date = facts.length > 0 ? ` (${facts.join(', ')})` : '';
  const later = ruling.laterAmended ? '; the text was enacted or amended again after it, so the text shown is not the one struck down' : '';
  return `${what} declared unconstitutional by ${rulingDecisionName(ruling)}${date}${later}`;
}

/** How a ruling bears on a citation of its element. */
export type RulingBearing =
  /** The citation names exactly what was struck down, or a part of it: the provision cited is unconstitutional. */
  | 'struck'
  /** The citation names a provision of which a part was struck down (the article, the paragraph of a struck point). */
  | 'partly'
  /** The citation names another part of the element (another paragraph or point). */
  | 'elsewhere';

/**
 * How `ruling` bears on `citation` of the same element: compares the ал., т. and изречение / предложение the citation
 * names with the part the ruling struck down. A ruling of words („в частта „…““) or a letter is `partly` for any
 * citation that contains them. A ruling whose text was enacted again later is never `struck`.
 */
export function rulingBearing(ruling: RulingView, citation: Citation): RulingBearing {
  const part = ruling.part;
  const paragraphs = citation.paragraphs ?? [];
  const points = citation.points ?? [];
  const { sentence, proposition } = sentenceAndProposition(citation.detail);
  let struck: boolean;
  if (part === null) {
    struck = true;
  } else {
    if (part.paragraph !== undefined && paragraphs.length > 0 && !paragraphs.includes(part.paragraph)) return 'elsewhere';
    if (part.point !== undefined && points.length > 0 && !points.includes(part.point)) return 'elsewhere';
    if (part.sentence !== undefined && sentence !== undefined && sentence !== part.sentence) return 'elsewhere';
    if (part.proposition !== undefined && proposition !== undefined && proposition !== part.proposition) return 'elsewhere';
    // What the citation names lies inside the part struck down when it goes at least as deep as the part does.
    const deepEnough =
      (part.paragraph === undefined || paragraphs.length > 0) &&
      (part.point === undefined || points.length > 0) &&
      (part.sentence === undefined || sentence !== undefined) &&
      (part.proposition === undefined || proposition !== undefined) &&
      part.letter === undefined &&
      part.words === undefined;
    // A paragraph-only part (no point) is struck whole: a citation of one of its points is inside it.
    struck = deepEnough;
  }
  if (struck && ruling.laterAmended) return 'partly';
  return struck ? 'struck' : 'partly';
}
