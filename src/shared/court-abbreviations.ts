/**
 * The abbreviations in common use for single courts (ВКС, ВАС, СГС …): what `--court` accepts beside codes and names
 * (`courts.ts`, `resolveCourt`) and what shell completion offers without a catalog (`completion/dynamic.ts`, which
 * must load nothing heavier than this table).
 */

/**
 * Abbreviations in common use for single courts, to the court's official name. Matched after removing dots, spaces
 * and dashes and upper-casing (`в.к.с.` → `ВКС`), and in Latin letters too (`VKS`, `sgs`: see `courts.ts`).
 */
export const COURT_ABBREVIATIONS: Readonly<Record<string, string>> = {
  КС: 'Конституционен съд',
  ВКС: 'Върховен касационен съд',
  ВАС: 'Върховен административен съд',
  САС: 'Софийски апелативен съд',
  СГС: 'Софийски градски съд',
  СОС: 'Софийски окръжен съд',
  СРС: 'Софийски районен съд',
  АССГ: 'Административен съд – София-град',
  АССО: 'Административен съд – София-окръг',
  СНС: 'Специализиран наказателен съд',
  АСНС: 'Апелативен специализиран наказателен съд',
  ВАПС: 'Военно-апелативен съд',
};
