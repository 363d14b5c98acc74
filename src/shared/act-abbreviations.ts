/**
 * Customary abbreviations of Bulgarian acts (КТ, ЗЗД, НПК …): well-known reference data, not legal text. The citation
 * parser (`citations.ts`) uses it to recognise an abbreviation written alone („ЗОП обжалване“); the sandbox's search
 * adds it to the abbreviation table it builds from the corpus's titles (`sandbox/search/references.ts`). Pure data.
 */

/**
 * Customary abbreviations of the main Bulgarian codes and laws, as Bulgarian legal writing uses them (statute
 * commentaries, court acts, the State Gazette's indexes), for those whose abbreviation is not simply the initials of
 * their title or whose initials are shared: abbreviation → title in the nominative. Checked against the titles; the
 * corpus may hold the act itself, only acts amending it, or neither.
 */
export const CUSTOMARY_ABBREVIATIONS: Readonly<Record<string, string>> = {
  КРБ: 'Конституция на Република България',
  КТ: 'Кодекс на труда',
  КСО: 'Кодекс за социалното осигуряване',
  ГПК: 'Граждански процесуален кодекс',
  НК: 'Наказателен кодекс',
  НПК: 'Наказателно-процесуален кодекс',
  АПК: 'Административнопроцесуален кодекс',
  ДОПК: 'Данъчно-осигурителен процесуален кодекс',
  СК: 'Семеен кодекс',
  КЗ: 'Кодекс за застраховането',
  ИК: 'Изборен кодекс',
  ТЗ: 'Търговски закон',
  ЗЗД: 'Закон за задълженията и договорите',
  ЗС: 'Закон за собствеността',
  ЗН: 'Закон за наследството',
  ЗДДС: 'Закон за данък върху добавената стойност',
  ЗКПО: 'Закон за корпоративното подоходно облагане',
  ЗДДФЛ: 'Закон за данъците върху доходите на физическите лица',
  ЗУТ: 'Закон за устройство на територията',
  ЗЗП: 'Закон за защита на потребителите',
  ЗАНН: 'Закон за административните нарушения и наказания',
  ЗСВ: 'Закон за съдебната власт',
  ЗЗЛД: 'Закон за защита на личните данни',
  ЗОП: 'Закон за обществените поръчки',
  ЗМВР: 'Закон за Министерството на вътрешните работи',
  ЗМИП: 'Закон за мерките срещу изпирането на пари',
  ЗПК: 'Закон за потребителския кредит',
  ЗПКОНПИ: 'Закон за противодействие на корупцията и за отнемане на незаконно придобитото имущество',
  ЗЗДискр: 'Закон за защита от дискриминация',
};
