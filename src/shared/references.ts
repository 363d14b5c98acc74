/**
 * Finds the articles an article's text refers to ("по чл. 12, ал. 2", "чл. 45 – 47", "чл. 3, 4 и 5",
 * "чл. 25 от Закона за търговския регистър"), in the manner of freelawproject/eyecite: a cheap literal pre-filter
 * (does the text mention "чл" at all), then, at each "чл." / "член" / "членове", a small token parser that reads the
 * citation group that follows: article numbers, ranges, lists joined by "," / "и" / "или", the details of each
 * article (ал., т., б., изр., пр., параграф) and `§` items, and finally what follows the group: "от <another act>"
 * (or an act's abbreviation such as НПК) makes every citation of the group a reference to another act, while
 * "от този закон", "от настоящия кодекс", "от преходните и заключителните разпоредби" or "от ДР" keep it in the same
 * act, while "от същия закон" points back at an act named before (another act). Pure functions over strings; no I/O.
 *
 * Known limits, by design (a citation missed is better than one invented): roman-numbered articles ("чл. ХІ") and
 * references without "чл." ("ал. 2" alone is within the same article) are not read; a bare number after a list
 * separator that is followed by a unit ("чл. 3, 14 дни") ends the group.
 */
import { compareArticleRefs, splitArticleRef } from './article-ref.js';

/** One article cited in a text. */
export interface ArticleCitation {
  /** The article as cited, lower case: `12`, `45а`. */
  article: string;
  /** For a range ("чл. 45 – 47"), its last article: `47`. */
  through?: string;
  /** What the citation names inside the article, as written with white space collapsed: `ал. 2, т. 3`; `''` if nothing. */
  detail: string;
  /**
   * `same`: an article of the act being read (no "от …" after it, or "от този закон" and the like); `external`: an
   * article of another act ("от Закона за …", "от Конституцията", "от ЗЗД", "НПК").
   */
  scope: 'same' | 'external';
  /** Offsets of the citation in the text (UTF-16 code units): from "чл." (or the bare number of a list) to its end. */
  start: number;
  end: number;
}

/** Anything to look at? (Cheap: most articles that cite nothing never reach the token parser.) */
const PREFILTER = /чл/iu;

/** Where a citation group may start: "чл.", "чл" before a number, "член", "членове", not inside a word. */
const GROUP_START = /(?<![\p{L}\p{N}])(?:членове|член|чл\.|чл(?=[ \u00a0]*\d))/giu;

type TokenKind = 'article' | 'detail' | 'number' | 'letter' | 'ordinal' | 'list' | 'range' | 'section' | 'other';

interface Token {
  kind: TokenKind;
  start: number;
  end: number;
  /** The matched text. */
  text: string;
}

/** Token patterns, tried in this order at the first non-blank character (sticky). */
const TOKENS: [TokenKind, RegExp][] = [
  ['article', /(?:членове|член|чл\.?)(?!\p{L})/iuy],
  ['detail', /(?:ал\.|алинеи|алинея|т\.|точки|точка|б\.|букви|буква|изр\.|изречения|изречение|пр\.|предложения|предложение|параграфи|параграф)(?!\p{L})/iuy],
  ['number', /\d+(?:[а-яѝ]{1,2})?(?![\p{L}\p{N}])/uy],
  ['letter', /[„"“«']\s*[а-яa-z]\s*[“"”»']/iuy],
  ['ordinal', /(?:първо|второ|трето|четвърто|пето|шесто|последно)(?!\p{L})/iuy],
  ['list', /,|(?:и\/или|или|и)(?!\p{L})/iuy],
  ['range', /[–—‒−-]|до(?!\p{L})/uy],
  ['section', /§/uy],
];

const BLANK = /[\s\u00a0]*/uy;

/** The token at `pos` (after blanks); `other` for anything the grammar does not know, `undefined` at the end. */
function tokenAt(text: string, pos: number): Token | undefined {
  BLANK.lastIndex = pos;
  BLANK.exec(text);
  const start = BLANK.lastIndex;
  if (start >= text.length) return undefined;
  for (const [kind, pattern] of TOKENS) {
    pattern.lastIndex = start;
    const match = pattern.exec(text);
    if (match) return { kind, start, end: pattern.lastIndex, text: match[0] };
  }
  return { kind: 'other', start, end: start + 1, text: text[start]! };
}

/** Words after a number that make it a quantity, not an article ("чл. 3, 14 дни", "до 3000 лв."). */
const UNIT = /^[ \u00a0]*(?:дни|ден|дена|седмици|седмица|месеца|месец|месеци|години|година|г\.|часа|час|минути|лв\.?|лева|евро|на сто|%|процента|души|броя|пъти)(?!\p{L})/iu;

/** Words after "от" that keep a citation in the act being read. */
const SAME_ACT_WORD = /^(?:този|тази|това|настоящия|настоящият|настоящата|настоящото|преходните|преходни|допълнителните|допълнителни|заключителните|заключителни|общите)$/iu;
/** Abbreviations of an act's own provisions: допълнителни, преходни и заключителни, преходни, заключителни разпоредби. */
const SAME_ACT_ABBREVIATION = /^(?:ДР|ПЗР|ПР|ЗР|ДПЗР)$/u;

/**
 * What follows a group: "от <word>" (or "на <Capitalized word>": "чл. 2 и 3 на Регламент (ЕО) № 178/2002"), or an
 * abbreviation (2+ capitals: НПК, ЗЗД, ДОПК, ЗМВнР) on the same line.
 */
const FROM_WORD = /[ \u00a0]*,?[\s\u00a0]*(?:от[\s\u00a0]+[„"“«]?([\p{L}\p{N}]+)|на[\s\u00a0]+[„"“«]?(\p{Lu}[\p{L}\p{N}]*))/uy;
/** "… разпоредби на Кодекса за …": the provisions of another act (after "от преходните и заключителните"). */
const PROVISIONS_OF_ANOTHER_ACT = /^[^.;:\n]{0,60}?разпоредби[\s\u00a0]+(?:на|към)[\s\u00a0]+[„"“«]?\p{Lu}/u;
const ABBREVIATION = /[ \u00a0]*,?[ \u00a0]*([А-Я]{2}[А-Яа-я]{0,6})(?!\p{L})/uy;

interface Building {
  article: string;
  through?: string;
  detailStart?: number;
  detailEnd?: number;
  start: number;
  end: number;
}

/** A group: the citations read from one "чл." on, and where the group ends. */
interface Group {
  citations: Building[];
  end: number;
}

/** Whether a token holds a value a detail takes: a number (`ал. 2`, `т. 1а`), a quoted letter (`б. „а“`), an ordinal. */
function isDetailValue(token: Token | undefined): token is Token {
  return token !== undefined && (token.kind === 'number' || token.kind === 'letter' || token.kind === 'ordinal');
}

/**
 * Reads the citation group that starts with the article keyword at `start`; `undefined` when no article number
 * follows, or when it is an article's own heading in quoted text ("„Чл. 17. Към …": capital "Чл.", the number followed
 * by a dot).
 */
function readGroup(text: string, start: number): Group | undefined {
  const keyword = tokenAt(text, start);
  if (keyword?.kind !== 'article') return undefined;
  const first = tokenAt(text, keyword.end);
  if (first?.kind !== 'number') return undefined;
  if (keyword.text === 'Чл.' && text[first.end] === '.') return undefined;

  let current: Building | undefined = { article: first.text.toLowerCase(), start: keyword.start, end: first.end };
  const citations: Building[] = [current];
  // Widened on purpose: `addDetail` changes it, which narrowing cannot see.
  let level = 'article' as 'article' | 'detail' | 'section';
  let pos = first.end;
  const addDetail = (from: number, value: Token): void => {
    current!.detailStart ??= from;
    current!.detailEnd = value.end;
    current!.end = value.end;
    level = 'detail';
    pos = value.end;
  };

  for (;;) {
    const token = tokenAt(text, pos);
    if (token === undefined) break;
    if (token.kind === 'detail') {
      const value = tokenAt(text, token.end);
      if (!isDetailValue(value)) break;
      if (current) addDetail(token.start, value);
      else pos = value.end; // a detail of a § item: part of the group, not of an article
      continue;
    }
    if (token.kind !== 'list' && token.kind !== 'range') break;
    const next = tokenAt(text, token.end);
    if (next === undefined) break;
    if (next.kind === 'article') {
      const number = tokenAt(text, next.end);
      if (number?.kind !== 'number' || (next.text === 'Чл.' && text[number.end] === '.')) break;
      if (token.kind === 'range' && level === 'article' && current) {
        current.through = number.text.toLowerCase();
      } else {
        current = { article: number.text.toLowerCase(), start: next.start, end: number.end };
        citations.push(current);
      }
      current.end = number.end;
      level = 'article';
      pos = number.end;
      continue;
    }
    if (next.kind === 'number') {
      if (UNIT.test(text.slice(next.end, next.end + 12))) break;
      if (level === 'article' && current) {
        if (token.kind === 'range') current.through = next.text.toLowerCase();
        else citations.push((current = { article: next.text.toLowerCase(), start: next.start, end: next.end }));
        current.end = next.end;
        pos = next.end;
        continue;
      }
      if (level === 'detail' && current) {
        addDetail(current.detailStart!, next);
        continue;
      }
      if (level === 'section') {
        pos = next.end;
        continue;
      }
      break;
    }
    if ((next.kind === 'letter' || next.kind === 'ordinal') && level === 'detail' && current) {
      addDetail(current.detailStart!, next);
      continue;
    }
    if (next.kind === 'detail' && token.kind === 'list') {
      const value = tokenAt(text, next.end);
      if (!isDetailValue(value)) break;
      if (current) addDetail(next.start, value);
      else pos = value.end;
      continue;
    }
    if (next.kind === 'section' && token.kind === 'list') {
      const number = tokenAt(text, next.end);
      if (number?.kind !== 'number') break;
      current = undefined;
      level = 'section';
      pos = number.end;
      continue;
    }
    break;
  }
  return { citations, end: pos };
}

/**
 * The scope of a group by what follows it at `end`: "от <this act's words>" or "от ДР" → `same` (but "от преходните и
 * заключителните разпоредби на Кодекса …" → `external`); "от същия …", "от <anything else>", "на <Capitalized>" or an
 * act's abbreviation → `external`; nothing → `same`.
 */
function scopeAfter(text: string, end: number): ArticleCitation['scope'] {
  FROM_WORD.lastIndex = end;
  const from = FROM_WORD.exec(text);
  if (from) {
    if (from[2] !== undefined) return 'external';
    const word = from[1]!;
    // "чл. 5 от 1 януари …": a date, not an act.
    if (/^\d/u.test(word)) return 'same';
    if (SAME_ACT_WORD.test(word)) return PROVISIONS_OF_ANOTHER_ACT.test(text.slice(FROM_WORD.lastIndex, FROM_WORD.lastIndex + 120)) ? 'external' : 'same';
    if (SAME_ACT_ABBREVIATION.test(word)) return 'same';
    // "от същия закон" points back at an act named before, in a citation or in prose; never at the act being read
    // (which says "от този закон").
    if (/^същ/iu.test(word)) return 'external';
    return 'external';
  }
  ABBREVIATION.lastIndex = end;
  const abbreviation = ABBREVIATION.exec(text);
  if (abbreviation) return SAME_ACT_ABBREVIATION.test(abbreviation[1]!) ? 'same' : 'external';
  return 'same';
}

/**
 * Every article cited in `text`, in the order written. A list ("чл. 3, 4 и 5") gives one citation per article; a range
 * ("чл. 45 – 47", "чл. 43д – 43и") one citation with `through`; details stay with their article
 * ("чл. 109, ал. 1, 7 и 12" is article 109, detail `ал. 1, 7 и 12`). Pass an article's text without its own label
 * (`Чл. 45.`), or that label is skipped as a heading.
 */
export function findArticleCitations(text: string): ArticleCitation[] {
  if (!PREFILTER.test(text)) return [];
  const found: ArticleCitation[] = [];
  let consumed = 0;
  for (const match of text.matchAll(GROUP_START)) {
    if (match.index < consumed) continue;
    const group = readGroup(text, match.index);
    if (!group) continue;
    consumed = group.end;
    const scope = scopeAfter(text, group.end);
    for (const c of group.citations) {
      const detail = c.detailStart === undefined ? '' : text.slice(c.detailStart, c.detailEnd).replace(/[\s\u00a0]+/gu, ' ');
      found.push({ article: c.article, ...(c.through !== undefined ? { through: c.through } : {}), detail, scope, start: c.start, end: c.end });
    }
  }
  return found;
}

/** An article of the act being read that a text refers to. */
export interface ReferencedArticle {
  /** The article's ref: as the document writes it when it has the article, else as cited. */
  ref: string;
  /** Whether the document has an element with this ref. */
  exists: boolean;
  /** The distinct details cited for it, in order (`ал. 2`, `ал. 5, т. 1`); empty when the article is cited whole. */
  details: string[];
  /**
   * For a range too long to list article by article (more than {@link MAX_RANGE_LISTED} articles of the document fall
   * inside it): its last article; `count` is then the number of the document's articles from `ref` to `through`.
   */
  through?: string;
  count?: number;
}

/** A range with more of the document's articles inside it than this stays one entry (`чл. 1 – 300`). */
export const MAX_RANGE_LISTED = 20;

/**
 * The articles of the same act that `citations` refer to, each once, in the order first cited: ranges are listed
 * article by article (both ends, and every article of the document that falls between them, e.g. `45`, `45а`, `46`,
 * `47`), unless more than {@link MAX_RANGE_LISTED} fall inside. `documentRefs` are the refs of the document's
 * elements; `self` (the ref of the article being read) is left out. Citations of other acts are ignored.
 */
export function referencedArticles(
  citations: readonly ArticleCitation[],
  documentRefs: readonly string[],
  options: { self?: string } = {},
): ReferencedArticle[] {
  const byLowerRef = new Map<string, string>();
  for (const ref of documentRefs) if (!byLowerRef.has(ref.toLowerCase())) byLowerRef.set(ref.toLowerCase(), ref);
  const ordered = [...new Set([...byLowerRef.keys()].filter((ref) => splitArticleRef(ref) !== undefined))].sort(compareArticleRefs);
  const self = options.self?.toLowerCase();
  const result: ReferencedArticle[] = [];
  const seen = new Map<string, ReferencedArticle>();

  const add = (cited: string, detail: string): void => {
    if (cited === self) return;
    let entry = seen.get(cited);
    if (!entry) {
      entry = { ref: byLowerRef.get(cited) ?? cited, exists: byLowerRef.has(cited), details: [] };
      seen.set(cited, entry);
      result.push(entry);
    }
    if (detail !== '' && !entry.details.includes(detail)) entry.details.push(detail);
  };

  for (const citation of citations) {
    if (citation.scope !== 'same') continue;
    const through = citation.through;
    if (through === undefined || !splitArticleRef(citation.article) || !splitArticleRef(through) || compareArticleRefs(citation.article, through) >= 0) {
      add(citation.article, citation.detail);
      if (through !== undefined) add(through, '');
      continue;
    }
    const inside = ordered.filter((ref) => compareArticleRefs(ref, citation.article) > 0 && compareArticleRefs(ref, through) < 0);
    if (inside.length > MAX_RANGE_LISTED) {
      const key = `${citation.article}–${through}`;
      if (seen.has(key)) continue;
      const entry: ReferencedArticle = {
        ref: byLowerRef.get(citation.article) ?? citation.article,
        exists: byLowerRef.has(citation.article),
        details: [],
        through: byLowerRef.get(through) ?? through,
        count: inside.length + (byLowerRef.has(citation.article) ? 1 : 0) + (byLowerRef.has(through) ? 1 : 0),
      };
      seen.set(key, entry);
      result.push(entry);
      continue;
    }
    for (const ref of [citation.article, ...inside, through]) add(ref, '');
  }
  return result;
}
