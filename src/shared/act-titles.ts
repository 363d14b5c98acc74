/**
 * What the title of a Bulgarian act says about the act: the wording of the titles of acts that only change other acts,
 * the title's initials (how legal writing abbreviates it) and its nominative form. Read by the sandbox's corpus
 * (`corpus/amendments.ts`, which act a § amends) and search (`search/metadata.ts`, `search/references.ts`) and by
 * `pravo cite` (`legal/cite.ts`, which act a memo names), so it lives in this leaf folder below both. Pure.
 */

/**
 * Titles of acts that only change other acts: "Закон за изменение (и допълнение) на …", "Закон за допълнение на …",
 * "Закон за отмяна на …" (the corpus's most numerous kind). The first group after "на" is the amended act's title
 * (in the definite form: "на Закона за …", "на Кодекса за …"). Case-insensitive, Unicode; matches the whole title
 * (leading and trailing spaces allowed).
 */
export const AMENDING_TITLE =
  /^\s*(?:закон|кодекс)\s+за\s+(?:изменени[ея]|допълнени[ея]|отмяна|отменяне)(?!\p{L})(?:\s+и\s+(?:изменени[ея]|допълнени[ея]))?(?:\s+на\s+(.+))?$/iu;

/** Words left out of a title's initials: prepositions and conjunctions. */
const FUNCTION_WORDS = new Set(['за', 'на', 'и', 'в', 'във', 'от', 'по', 'с', 'със', 'върху', 'срещу', 'към', 'при', 'до', 'или', 'чрез', 'относно']);

/**
 * The initials of a title, as Bulgarian legal writing abbreviates acts: the first letter of each word but the
 * function words, capitalised; a hyphenated word gives a letter per part (`Данъчно-осигурителен процесуален кодекс`
 * → `ДОПК`; `Закон за обществените поръчки` → `ЗОП`; `Кодекса на труда` → `КТ`).
 */
export function initials(title: string): string {
  return (title.match(/[\p{L}]+/gu) ?? [])
    .filter((w) => !FUNCTION_WORDS.has(w.toLowerCase()))
    .map((w) => w[0]!.toUpperCase())
    .join('');
}

/**
 * The nominative of an act's title as an amending act's title writes it after „на“, or a sentence after „от“: the head
 * noun, the first of „Закона“, „Кодекса“, „Правилника“, „Конституцията“, „Конвенцията“, „Наредбата“, loses its
 * definite article („Закон“ … „Наредба“), and adjectives before it lose theirs (-ския → -ски, -йния → -ен, -ния → -ен,
 * -ия → -и): „Търговския закон“ → „Търговски закон“, „Кодекса за социално осигуряване“ → „Кодекс за социално
 * осигуряване“, „Правилника за прилагане на Закона за …“ → „Правилник за прилагане на Закона за …“. Words after the
 * head noun are kept as written. Trimmed; `''` for `''`.
 */
export function nominativeTitle(oblique: string): string {
  const words = oblique.trim().split(/\s+/u);
  const head = words.findIndex((w) => /^(?:закона?|кодекса?|правилника?|конституция(?:та)?|конвенция(?:та)?|наредба(?:та)?)$/iu.test(w));
  if (head < 0) return words.join(' ');
  return words
    .map((w, i) => {
      if (i === head) return w.replace(/^(закон|кодекс|правилник)а$/iu, '$1').replace(/^(конституция|конвенция|наредба)та$/iu, '$1');
      if (i > head) return w;
      return w.replace(/ския$/u, 'ски').replace(/йния$/u, 'ен').replace(/ния$/u, 'ен').replace(/ия$/u, 'и');
    })
    .join(' ');
}

/**
 * Whether two words of titles are the same word, allowing the forms a title takes in a sentence: equal ignoring case,
 * or both at least 4 letters long, the shorter differing in at most its last two and the longer in at most its last
 * four (`Закона`/`Закон`, `Гражданския`/`Граждански`, `Наказателния`/`Наказателен`, `Семейния`/`Семеен`,
 * `Конституцията`/`Конституция`). A word with a digit (a year) is the same only when equal.
 */
export function sameTitleWord(a: string, b: string): boolean {
  const x = a.toLowerCase().normalize('NFC');
  const y = b.toLowerCase().normalize('NFC');
  if (x === y) return true;
  // A number (a year: „… за 2011 г.“) has no forms: 2011 is not 2014.
  if (/\d/u.test(x) || /\d/u.test(y)) return false;
  const shorter = Math.min(x.length, y.length);
  if (shorter < 4) return false;
  let common = 0;
  while (common < shorter && x[common] === y[common]) common++;
  return common >= shorter - 2 && Math.max(x.length, y.length) - common <= 4;
}

/**
 * Whether a word written as an act's whole name is „Конституцията“ / „Конституция“ alone (any case): lawyers mean
 * the Constitution of the Republic (`КРБ`), not another act whose title begins so. Read by `pravo cite`
 * (`act-match.ts`, `namedAct`) and the sandbox's search (`search/references.ts`).
 */
export function isConstitutionAlone(word: string): boolean {
  return /^конституция(?:та)?$/iu.test(word);
}
