/**
 * Synthetic documents as `GET /v1/documents` returns them, for the tests of `pravo doc` and its renderer. Every title
 * says it is test data; every text is made up in the style of an act or a decision, and is not legal content.
 */
import type { DocumentElement, DocumentResponse } from '../../src/contract/types.js';

/** A statute's element: ref, label `Чл. <ref>.`, the text starting with the label, and its excerpt_id. */
function article(documentId: string, ref: string, body: string, occurrence = 1): DocumentElement {
  return { excerpt_id: `${documentId}:${ref}${occurrence > 1 ? `~${occurrence}` : ''}`, ref, label: `Чл. ${ref}.`, text: `Чл. ${ref}. ${body}` };
}

/**
 * A statute of eight elements: чл. 1 to 5 with 4а, and a second element numbered 4 (an article of another act quoted
 * in a § provision). Чл. 2 cites чл. 5, ал. 2, the range чл. 3 – 5, чл. 44а (not in the document), and чл. 12 of
 * another act.
 */
export function testStatute(documentId = 'test-act-1', collection = 'c_test'): DocumentResponse {
  return {
    document_id: documentId,
    collection,
    source_type: 'bulgarian_laws_regulations',
    type: 'Закон',
    title: 'Закон за примерните уведомления (ТЕСТОВИ ДАННИ)',
    date: '2020-05-01',
    in_force_date: '2020-06-01',
    author: 'ТЕСТОВИ ДАННИ: измислен автор',
    url: `https://example.invalid/${encodeURIComponent(documentId)}`,
    signature: null,
    elements: [
      article(documentId, '1', 'Този закон урежда примерните уведомления (тестов текст).'),
      article(
        documentId,
        '2',
        '(1) Уведомлението по чл. 5, ал. 2 се подава писмено.\n' +
          '(2) Сроковете по чл. 3 – 5 и по чл. 12 от Закона за измислените срокове не се прилагат за:\n' +
          '1. лицата по чл. 44а;\n' +
          '2. тестовите случаи.',
      ),
      article(documentId, '3', 'Уведомлението съдържа име и адрес (тестов текст).'),
      article(documentId, '4', 'Срокът за уведомяване е седем дни (тестов текст).'),
      article(documentId, '4а', 'Уведомлението се вписва в тестов регистър.'),
      article(documentId, '5', '(1) Агенцията води регистъра.\n(2) Вписването е безплатно (тестов текст).'),
      article(documentId, '4', 'Това е член на друг закон, цитиран в § 3 (тестов текст).', 2),
      { excerpt_id: `${documentId}:6`, ref: '6', label: 'Чл. 6.', text: 'Чл. 6. Без препратки.' },
    ],
  };
}

/** A court decision of three paragraphs with the court fields (panel: chair first). */
export function testDecision(documentId = 'test-case-1', collection = 'c_cases'): DocumentResponse {
  return {
    document_id: documentId,
    collection,
    source_type: 'high_courts_cases',
    type: 'Решение',
    title: 'Решение № 7 по тестово дело (ТЕСТОВИ ДАННИ)',
    date: '2024-03-01',
    in_force_date: null,
    author: 'ТЕСТОВИ ДАННИ: измислен съд',
    url: 'https://example.invalid/test-case-1',
    signature: null,
    court_id: 1,
    court: 'Тестов касационен съд',
    decision_number: '7',
    case_number: '12/2024',
    case_kind: 'наказателно дело',
    department: 'Първо тестово отделение',
    reporting_judge: 'Борис Тестов',
    judges: ['Анна Примерова', 'Борис Тестов', 'Вера Измислена'],
    elements: [
      { excerpt_id: `${documentId}:1`, ref: '1', label: '¶ 1', text: 'Р Е Ш Е Н И Е № 7 (тестов текст)' },
      { excerpt_id: `${documentId}:2`, ref: '2', label: '¶ 2', text: 'Производството е по чл. 346 от НПК (тестов текст). Жалбата е допустима.' },
      { excerpt_id: `${documentId}:3`, ref: '3', label: '¶ 3', text: 'Р Е Ш И: оставя в сила тестовото решение.' },
    ],
  };
}

/**
 * A decision in the Constitutional Court's printed form, with an operative part of two rulings and the dissent and the
 * становище printed after it (test data): title, panel, reasons, „Р Е Ш И :“, „1. Обявява …“, „2. Отхвърля …“, the
 * chair's signature, „ОСОБЕНО МНЕНИЕ …“, „СТАНОВИЩЕ …“. Fields as `overrides` give (an unnumbered Определение:
 * `{ type: 'Определение', decision_number: null }`).
 */
export function testPartsDecision(overrides: Partial<DocumentResponse> = {}): DocumentResponse {
  const id = 'test-ks-1';
  const paragraphs = [
    'РЕШЕНИЕ № 3 от 1 март 2024 г. по конституционно дело № 9 от 2024 г. (ТЕСТОВИ ДАННИ)',
    'Конституционният съд в състав: председател: Анна Примерова, членове: Борис Тестов, Вера Измислена, Галина Примерна, при участието на секретар-протоколиста Дора Тестова разгледа тестовото дело, докладвано от съдията Борис Тестов.',
    'Производството е по тестово искане. Тестовите мотиви на съда са тук.',
    'Р Е Ш И :',
    '1. Обявява за тестова разпоредбата на чл. 1 от Закона за примерните уведомления (ТЕСТОВИ ДАННИ).',
    '2. Отхвърля тестовото искане в останалата му част.',
    'Председател: Анна Примерова',
    'ОСОБЕНО МНЕНИЕ на съдията Вера Измислена по тестовото дело',
    'Не споделям тестовия извод на мнозинството. Конституционен съдия: Вера Измислена',
    'СТАНОВИЩЕ на съдията Галина Примерна',
    'Подкрепям тестовия диспозитив по други съображения.',
  ];
  return {
    document_id: id,
    collection: 'c_cases',
    source_type: 'high_courts_cases',
    type: 'Решение',
    title: 'Решение № 3 от 01.03.2024 г. по к. д. № 9/2024 г., КС (ТЕСТОВИ ДАННИ)',
    date: '2024-03-01',
    in_force_date: null,
    author: 'ТЕСТОВИ ДАННИ: измислен съд',
    url: '',
    signature: null,
    court_id: 0,
    court: 'Конституционен съд',
    decision_number: '3',
    case_number: '9/2024',
    case_kind: 'конституционно дело',
    department: null,
    reporting_judge: 'Борис Тестов',
    judges: ['Анна Примерова', 'Борис Тестов', 'Вера Измислена', 'Галина Примерна'],
    elements: paragraphs.map((text, i) => ({ excerpt_id: `${id}:${i + 1}`, ref: String(i + 1), label: `¶ ${i + 1}`, text })),
    ...overrides,
  };
}
