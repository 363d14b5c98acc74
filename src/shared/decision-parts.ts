/**
 * The parts of a court decision, read from its paragraphs (the `elements` of a decision, spec: Document response, in
 * the corpus's format: one paragraph each, docs/sandbox.md "Court decisions"): the header (title and panel), the
 * reasons (мотиви), the operative part (диспозитив), the signatures, the opinions printed with the act (особено мнение,
 * становище), and text printed after the act that is none of it. Shared by the renderers of `pravo doc`
 * (`render/document.ts`, `render/markdown.ts`) and the sandbox's search, whose excerpts come from the reasons and the
 * operative part (`sandbox/search/decision-parts.ts`). Pure; reads the Bulgarian courts' printed forms (ВКС, ВАС, КС).
 *
 * The rules, in the order of the text (a paragraph's part depends on the paragraphs before it):
 * - header: the leading paragraphs that are the title („РЕШЕНИЕ № 1 от …“, „по конституционно дело № 1 …“,
 *   „гр. София“, „В ИМЕТО НА НАРОДА“) or the panel („Конституционният съд в състав: председател: …“,
 *   „Върховният административен съд … в съдебно заседание на … в състав: …“, „при секретар …, изслуша докладваното
 *   …“); the first paragraph that is neither starts the reasons.
 * - operative: from the paragraph holding the operative marker („Р Е Ш И:“, „РЕШИ:“, „О П Р Е Д Е Л И:“,
 *   „ОПРЕДЕЛИ:“, „РАЗПОРЕЖДАМ:“; at its start, or inside a paragraph that begins with the last reasons) through the
 *   rulings that follow („Обявява …“, „ОТМЕНЯ …“, „1. Обявява …“, „Решението е окончателно.“), up to the signatures or
 *   an opinion. A paragraph whose rulings run into the chair's signature („… Председател: Павлина Панова“) stays
 *   operative.
 * - signatures: a paragraph that opens with a signature („Председател:“, „И.ф. председател:“, „За председател:“,
 *   „Членове:“, „Конституционни съдии:“, „Съдия:“, „Вярно с оригинала“, and the ВАС form „Особено мнение: Вярно с
 *   оригинала, ПРЕДСЕДАТЕЛ: /п/ …“, whose empty „Особено мнение:“ is a field of the form, not an opinion), and the
 *   short lines after it. In an act without an operative part (a judge's opinion filed alone), a signature among its
 *   last three paragraphs.
 * - dissent: after the operative part starts, a paragraph that opens an opinion („ОСОБЕНО МНЕНИЕ“, „ОСОБЕНИ МНЕНИЯ“,
 *   „СТАНОВИЩЕ“, „Особено мнение на/по …“, „Становище на/по …“, „Подписах решението с особено мнение …“), and all
 *   that follows it, the opinions' own signatures included. Before the operative part these words are the reasons'
 *   („Становище по делото е представил президентът …“).
 * - appended: a paragraph that opens with a State Gazette section heading („РАЗДЕЛ ДЪРЖАВНИ ВЕДОМСТВА …“), or a long
 *   one after the signatures that opens no opinion, and all that follows: the next Gazette items, which a few acts of
 *   the corpus still carry (gazette-decisions.jsonl.gz, e.g. vas-2021-4931-1803-2021). No part of the act.
 */

/** The part of a decision a paragraph belongs to (see the module's rules). */
export type DecisionPart = 'header' | 'reasons' | 'operative' | 'signatures' | 'dissent' | 'appended';

/**
 * A section a reader should see marked where it starts: the operative part; an opinion (`dissent`: „ОСОБЕНО МНЕНИЕ“,
 * `dissents`: „ОСОБЕНИ МНЕНИЯ“ of several judges, `separate`: „СТАНОВИЩЕ“, a judge's opinion that agrees with the
 * ruling); text appended after the act.
 */
export type DecisionSection = 'operative' | 'dissent' | 'dissents' | 'separate' | 'appended';

/** One paragraph's part, and the section it opens, if any. */
export interface DecisionParagraph {
  part: DecisionPart;
  /** Set on the first paragraph of a section to mark (an operative part, each opinion, appended text). */
  opens?: DecisionSection;
}

/** Letters of a word printed letter-spaced or not: `Р Е Ш И` or `РЕШИ`. */
function spaced(word: string): string {
  return [...word].join(' ?');
}

/** A title's opening: the act's kind, letter-spaced or not, in any case („РЕШЕНИЕ № 1“, „Р Е Ш Е Н И Е“, „Определение“). */
const TITLE = new RegExp(
  `^\\s*(?:\\d+\\s+)?(?:${spaced('РЕШЕНИЕ')}|${spaced('ОПРЕДЕЛЕНИЕ')}|${spaced('РАЗПОРЕЖДАНЕ')}|ОСОБЕНО\\s+МНЕНИЕ|СТАНОВИЩЕ)(?!\\p{L})`,
  'iu',
);
/** A short line of the title: the case, the date, the number, the place, „В ИМЕТО НА НАРОДА“. */
const TITLE_LINE = new RegExp(
  `^\\s*(?:по\\s+(?:конституционно|административно|наказателно|гражданско|търговско|адм\\.|к\\.\\s*д\\.)|от\\s+\\d|№\\s*\\d|гр(?:ад)?\\.?\\s|София|${spaced('ВИМЕТОНАНАРОДА').replace(/ \?/g, '\\s*')})`,
  'iu',
);
/** Longest paragraph taken for a title line by {@link TITLE_LINE} alone. */
const TITLE_LINE_MAX = 200;
/** A title paragraph longer than this is a header only when the panel follows in it (it may run into the reasons). */
const TITLE_MAX = 300;
/** How far into a paragraph the panel's words are looked for. */
const PANEL_REACH = 400;
/** The panel sentence: „в състав“ with its chair. */
const IN_PANEL = /в\s+състав/iu;
const CHAIR = /председател/iu;
/** A paragraph that opens with the court's name (a panel sentence when „в състав“ follows). */
const COURT = /^\s*(?:Конституционният|Върховният|Върховен|ВЪРХОВНИЯТ|ВЪРХОВЕН)\s/u;
/** A paragraph of the panel list on its own: „председател: …“, „и членове: …“. */
const PANEL_LIST = /^\s*(?:и\s+)?(?:председател|членове)\s*[:\-–]/iu;
/** The end of the panel sentence on a line of its own: the secretary, the rapporteur. */
const PANEL_END = /секретар|докладва/iu;

/** The operative marker: „Р Е Ш И:“, „РЕШИ:“, „О П Р Е Д Е Л И:“, „ОПРЕДЕЛИ:“, „РАЗПОРЕЖДАМ:“ (capitals only). */
const OPERATIVE = new RegExp(`(?:^|\\s)(?:${spaced('РЕШИ')}|${spaced('ОПРЕДЕЛИ')}|${spaced('РАЗПОРЕЖДАМ')})\\s*:`, 'u');

/** A signature opening a paragraph (see the module's rules). */
const SIGNATURE =
  /^\s*(?:(?:(?:за\s+)?(?:и\.\s*[дф]\s*\.\s*)?п ?редседател|членове|конституционни\s+съдии|конституционен\s+съдия|съдии|съдия(?:[- ]докладчик)?)\s*:|вярно\s+с\s+оригинала|особено\s+мнение\s*:\s*вярно)/iu;
/** Longest paragraph after a signature that is taken for more of the signatures (a name, „Членове: 1. 2.“). */
const SIGNATURE_LINE_MAX = 80;

/** The heading of an opinion (which opens a new one even inside another). */
const OPINION_HEADING = /^\s*(?:ОСОБЕНО\s+МНЕНИЕ|ОСОБЕНИ\s+МНЕНИЯ|СТАНОВИЩЕ|(?:Особено\s+мнение|Особени\s+мнения|Становище)\s+(?:на|по)\s)/u;
/** An opinion that opens without a heading, in its author's words. */
const OPINION_WORDS = /^\s*(?:Подписах|Подписваме|Изразявам\s+особено)/u;
/** A State Gazette section heading: what follows is the Gazette's next items, not the act. */
const GAZETTE_SECTION = /^\s*(?:РАЗДЕЛ\s+(?:ДЪРЖАВНИ|ОФИЦИАЛЕН|НЕОФИЦИАЛЕН)|НЕОФИЦИАЛЕН\s+РАЗДЕЛ)/u;

/** The kind of opinion a paragraph opens: особени мнения, становище, else особено мнение. */
function opinionOf(text: string): DecisionSection {
  if (/^\s*(?:ОСОБЕНИ\s+МНЕНИЯ|Особени\s+мнения)/u.test(text)) return 'dissents';
  if (/^\s*(?:СТАНОВИЩЕ|Становище)/u.test(text)) return 'separate';
  return 'dissent';
}

/** Whether paragraph `index` of the leading run is part of the header (title or panel). */
function isHeader(text: string, index: number): boolean {
  const head = text.slice(0, PANEL_REACH);
  const panel = IN_PANEL.test(head);
  if (TITLE.test(text)) return text.length <= TITLE_MAX || panel;
  if (text.length <= TITLE_LINE_MAX && TITLE_LINE.test(text)) return true;
  if (panel && (CHAIR.test(head) || COURT.test(text))) return true;
  if (PANEL_LIST.test(text)) return true;
  return index > 0 && text.length <= PANEL_REACH && PANEL_END.test(text);
}

/**
 * The part of each paragraph of a decision (see the module's rules), in order; `opens` marks where the operative part,
 * each opinion and appended text start. `texts` are the paragraphs' texts in the document's order (for elements:
 * `elementTextOf`). `[]` for `[]`. A text that is no decision gets header and reasons only, as a rule finds nothing.
 */
export function decisionParts(texts: readonly string[]): DecisionParagraph[] {
  const parts: DecisionParagraph[] = [];
  let part: DecisionPart = 'header';
  texts.forEach((text, i) => {
    let opens: DecisionSection | undefined;
    if (part === 'header' && !isHeader(text, i)) part = 'reasons';
    if (part !== 'header' && part !== 'appended' && GAZETTE_SECTION.test(text)) {
      part = 'appended';
      opens = 'appended';
    } else if (part === 'reasons') {
      if (OPERATIVE.test(text)) {
        part = 'operative';
        opens = 'operative';
      } else if (SIGNATURE.test(text) && i >= texts.length - 3) {
        part = 'signatures';
      }
    } else if (part === 'operative' || part === 'signatures') {
      if (OPINION_HEADING.test(text) || OPINION_WORDS.test(text)) {
        part = 'dissent';
        opens = opinionOf(text);
      } else if (SIGNATURE.test(text)) {
        part = 'signatures';
      } else if (part === 'signatures' && text.length > SIGNATURE_LINE_MAX) {
        part = 'appended';
        opens = 'appended';
      }
    } else if (part === 'dissent' && OPINION_HEADING.test(text) && !/^\s*(?:ОСОБЕНИ\s+МНЕНИЯ|ОСОБЕНО\s+МНЕНИЕ)\s*$/u.test(texts[i - 1] ?? '')) {
      opens = opinionOf(text);
    }
    parts.push(opens === undefined ? { part } : { part, opens });
  });
  return parts;
}

/** Parts whose paragraphs a search excerpt may come from: what the court reasoned and ruled. */
export const EXCERPT_PARTS: ReadonlySet<DecisionPart> = new Set(['reasons', 'operative']);
