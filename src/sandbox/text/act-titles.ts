/**
 * What the title of a Bulgarian act says about the act: the wording of the titles of acts that only change other acts.
 * Read by the corpus (`corpus/amendments.ts`, which act a § amends) and by the search (`search/metadata.ts`, which
 * documents are amending acts; `search/references.ts`), so it lives in this leaf folder below both.
 */

/**
 * Titles of acts that only change other acts: "Закон за изменение (и допълнение) на …", "Закон за допълнение на …",
 * "Закон за отмяна на …" (the corpus's most numerous kind). The first group after "на" is the amended act's title
 * (in the definite form: "на Закона за …", "на Кодекса за …"). Case-insensitive, Unicode; matches the whole title
 * (leading and trailing spaces allowed).
 */
export const AMENDING_TITLE =
  /^\s*(?:закон|кодекс)\s+за\s+(?:изменени[ея]|допълнени[ея]|отмяна|отменяне)(?!\p{L})(?:\s+и\s+(?:изменени[ея]|допълнени[ея]))?(?:\s+на\s+(.+))?$/iu;
