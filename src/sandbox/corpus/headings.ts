/**
 * Section headings in the corpus's statute texts. The source prints the heading of an article (and the chapter or
 * section titles opening before it) on the lines that precede it, and the corpus keeps those lines at the end of the
 * PREVIOUS article's `text` (ЗОП чл. 71 ends with „Необичайно благоприятни оферти“, the heading of чл. 72). The index
 * moves them to the article they introduce (`articles.heading`, searched with their own weight) and keeps them out
 * of the previous article's excerpts. `GET /v1/documents` still serves the elements exactly as the corpus has them.
 */

/** Longest line taken for a heading, in characters. */
export const HEADING_MAX_LINE = 160;

/**
 * Whether one line (trimmed) reads as a heading: 1 to {@link HEADING_MAX_LINE} characters, starting with a capital
 * letter (so the quoted new headings of an amending act, „Данъчна ставка, and numbered points stay text), with no
 * colon (signature lines: „Председател на Народното събрание: …“) and no sentence-ending punctuation at its end.
 */
function isHeadingLine(line: string): boolean {
  return (
    line.length > 0 &&
    line.length <= HEADING_MAX_LINE &&
    /^[\p{Lu}]/u.test(line) &&
    !line.includes(':') &&
    !/[.;,!?…\-–—]["“”»)]*$/u.test(line)
  );
}

/**
 * Splits a statute article's text into its body and the heading lines at its end that belong to the next article.
 * At least one line of body always remains (an article that is only short lines is left whole).
 * @returns `body` (the text without those lines, trailing whitespace trimmed) and `heading` (the lines joined by
 *   `\n`; `''` when there are none).
 */
export function splitTrailingHeading(text: string): { body: string; heading: string } {
  const lines = text.split('\n');
  let k = lines.length;
  while (k > 1 && isHeadingLine(lines[k - 1]!.trim())) k--;
  if (k === lines.length) return { body: text, heading: '' };
  return {
    body: lines.slice(0, k).join('\n').trimEnd(),
    heading: lines
      .slice(k)
      .map((l) => l.trim())
      .join('\n'),
  };
}

/** Whether an element is a statute's article or paragraph (`Чл. …`, `§ …`), the only elements headings are moved between. */
export function isStatuteProvision(label: string): boolean {
  return /^\s*(?:чл\.|член|§)/iu.test(label);
}

/**
 * The indexed text of each element of a document: for consecutive statute provisions, the trailing heading lines of
 * one move to the next as its `heading`; the last element keeps its text (nothing follows it to take the lines).
 * Court decisions' paragraphs (`¶ n`) are unchanged.
 * @returns one `{body, heading}` per element, in order.
 */
export function elementsWithHeadings(elements: readonly { label: string; text: string }[]): { body: string; heading: string }[] {
  const out = elements.map((e) => ({ body: e.text, heading: '' }));
  for (let i = 0; i + 1 < elements.length; i++) {
    if (!isStatuteProvision(elements[i]!.label) || !isStatuteProvision(elements[i + 1]!.label)) continue;
    const { body, heading } = splitTrailingHeading(out[i]!.body);
    if (heading === '') continue;
    out[i]!.body = body;
    out[i + 1]!.heading = heading;
  }
  return out;
}

/**
 * A line that heads a division of the act, not one article: „Глава първа. ОБЩИ ПОЛОЖЕНИЯ“, „Раздел III“, „Допълнителни
 * разпоредби“, or a title in capitals („ТРУДОВ ДОГОВОР“).
 */
const DIVISION_HEADING = /^(?:част|дял|глава|раздел|подраздел|допълнителн\S* разпоредб|преходн|заключителн)/iu;

/**
 * The article's own heading (its title, „Прекратяване на трудовия договор без предизвестие“) out of `heading` as the
 * index stores it (`articles.heading`: the division headings opening before the article and its own title, joined
 * by ` / ` (Akoma Ntoso, consolidated texts) or one a line (headings moved from the previous article)): the last
 * part, unless that part heads a division ({@link DIVISION_HEADING}, or written in capitals); `''` when there is none.
 * The own heading is matched as part of the article; a division heading is not the article's title.
 */
export function ownHeading(heading: string): string {
  if (heading === '') return '';
  const last = heading.split(/ \/ |\n/u).at(-1)!.trim();
  if (last === '' || DIVISION_HEADING.test(last)) return '';
  const letters = last.replace(/[^\p{L}]/gu, '');
  if (letters.length > 3 && letters === letters.toUpperCase()) return '';
  return last;
}
