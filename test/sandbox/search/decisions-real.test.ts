/**
 * The 475 real decisions of `../shared/corpus` (bg-decisions.jsonl.gz and gazette-decisions.jsonl.gz, read at run time,
 * never copied) in the search: excerpts from the reasons and the operative part, never from the header unless that is
 * all a query matched; `judge_name` and the judges catalog over the КС and ВАС panels, a second rapporteur, and the
 * decisions that record no panel.
 */
import { describe, expect, it } from 'vitest';
import type { SearchRequest, SearchResult } from '../../../src/contract/types.js';
import { noResultsReasonOf } from '../../../src/render/fields.js';
import { noResultsLine } from '../../../src/render/no-results.js';
import { judgeCatalog } from '../../../src/sandbox/routes/judges.js';
import { decisionJudgeNames } from '../../../src/sandbox/search/judges.js';
import { searchMetadata } from '../../../src/sandbox/search/metadata.js';
import { search } from '../../../src/sandbox/search/pipeline.js';
import { decisionParts, EXCERPT_PARTS } from '../../../src/shared/decision-parts.js';
import { haveSharedCorpus, useRealIndex } from '../real-index.js';

describe.skipIf(!haveSharedCorpus)('the real decisions in the search', () => {
  const index = useRealIndex('pravo-decisions-real-');

  /** The part of each excerpt of a decision, read from the document as served. */
  const excerptParts = (result: SearchResult): string[] => {
    const document = index().readDocument(result.document_id!, result.collection!)!;
    const parts = decisionParts(document.elements.map((e) => e.text));
    return (result.excerpts ?? []).map((e) => parts[document.elements.findIndex((el) => el.excerpt_id === e.excerpt_id)]!.part);
  };

  it('excerpts of decisions come from the reasons and the operative part, else say where the words are', () => {
    const queries = [
      'противоконституционна давност наказателно преследване',
      'отмяна на наредба поради липса на обществено обсъждане',
      'касационна жалба петчленен състав разноски',
      'Върховният административен съд в съдебно заседание в състав',
      'Конституционният съд в състав председател членове',
    ];
    let decisions = 0;
    let fromHeader = 0;
    for (const query of queries) {
      for (const result of search(index(), { query, source_types: ['high_courts_cases'] }).results) {
        decisions++;
        const parts = excerptParts(result);
        const explanation = String(result.explanation);
        if (parts.every((p) => EXCERPT_PARTS.has(p as never))) continue;
        if (parts.includes('header') || parts.includes('signatures')) {
          // The header is all the query matched: one excerpt, and the explanation says so.
          fromHeader++;
          expect(parts).toHaveLength(1);
          expect(explanation).toMatch(/Думите на заявката са само (в заглавието и състава на акта|в подписите)/);
        } else {
          expect(parts.every((p) => p === 'dissent')).toBe(true);
          expect(explanation).toMatch(/от (особено мнение|становище на съдия), отпечатано с акта/);
        }
        expect(parts).not.toContain('appended');
      }
    }
    expect(decisions).toBeGreaterThanOrEqual(80);
    // The panel's words are in the reasons of most decisions too: the header stays the exception.
    expect(fromHeader).toBeLessThan(decisions / 4);
  });

  it('КС Решение № 12/2016 on limitation: excerpts of its reasons and ruling, none of its title or panel', () => {
    const result = search(index(), { query: 'давност престъпления Наказателния кодекс противоконституционни', source_types: ['high_courts_cases'] }).results.find(
      (r) => r.document_id === 'ks-2016-12-13-2015',
    );
    expect(result).toBeDefined();
    expect(excerptParts(result!).every((p) => p === 'reasons' || p === 'operative')).toBe(true);
    expect(result!.excerpts!.map((e) => e.label)).not.toContain('¶ 1');
    expect(result!.excerpts!.map((e) => e.label)).not.toContain('¶ 2');
  });

  it('--judge finds a КС judge on every decision whose panel names her, and a ВАС judge of a five-member panel', () => {
    const documents = searchMetadata(index()).documents;
    const sat = (name: string): string[] =>
      documents
        .filter((d) => d !== undefined && d.court_id !== null && decisionJudgeNames(d).includes(name))
        .map((d) => d!.document_id)
        .sort();
    const panova = search(index(), { query: 'Конституционният съд', judge_name: 'Павлина Панова', max_results: 50 });
    expect(panova.results.length).toBeGreaterThanOrEqual(20);
    const panovaSat = new Set(sat('Павлина Панова'));
    expect(panova.results.every((r) => panovaSat.has(r.document_id!))).toBe(true);
    expect(panova.results.every((r) => r.court_id === 0)).toBe(true);
    // In Latin letters, as a foreign colleague types it.
    expect(search(index(), { query: 'Конституционният съд', judge_name: 'Pavlina Panova', max_results: 50 }).results.map((r) => r.document_id)).toEqual(
      panova.results.map((r) => r.document_id),
    );
    // A judge of the ВАС's three- and five-member panels, by surname alone.
    const konstantinov = search(index(), { query: 'Върховният административен съд', judge_name: 'Константинов', max_results: 50 });
    expect(konstantinov.results.length).toBeGreaterThanOrEqual(15);
    expect(konstantinov.results.every((r) => r.court_id === 2)).toBe(true);
    const konstantinovSat = new Set(sat('Йордан Константинов'));
    expect(konstantinov.results.every((r) => konstantinovSat.has(r.document_id!))).toBe(true);
  });

  it('a decision reported by two judges is found by the second, who sits on its panel', () => {
    // „докладвано от съдиите Васил Гоцев и Людмил Нейков“: the corpus records the first as the rapporteur.
    const found = search(index(), { query: 'конституционно дело', judge_name: 'Людмил Нейков', max_results: 50, date_from: '2004-01-01', date_to: '2004-12-31' });
    expect(found.results.map((r) => r.document_id)).toContain('ks-2004-3-3-2004');
  });

  it('the judges catalog lists the КС and ВАС judges with their decisions; decisions without a panel count for no judge', () => {
    const documents = searchMetadata(index()).documents;
    const ks = judgeCatalog(documents, { court: { court_id: 0, name: 'Конституционен съд' }, search: undefined, limit: 100 });
    expect(ks.map((j) => j.name)).toEqual(expect.arrayContaining(['Павлина Панова', 'Борис Велчев', 'Неделчо Беронов', 'Евгени Танчев']));
    expect(ks.every((j) => j.court_ids.length === 1 && j.court_ids[0] === 0)).toBe(true);
    const panova = ks.find((j) => j.name === 'Павлина Панова')!;
    expect(panova.decision_count).toBeGreaterThanOrEqual(50);
    const vas = judgeCatalog(documents, { court: { court_id: 2, name: 'Върховен административен съд' }, search: undefined, limit: 100 });
    expect(vas.map((j) => j.name)).toEqual(expect.arrayContaining(['Светла Петкова', 'Йордан Константинов', 'Георги Колев']));
    expect(vas.find((j) => j.name === 'Йордан Константинов')!.decision_count).toBeGreaterThanOrEqual(20);
    // Three acts record no readable panel: no judge of the catalog counts them, and no --judge finds them.
    const unrecorded = documents.filter((d) => d !== undefined && d.court_id !== null && decisionJudgeNames(d).length === 0).map((d) => d!.document_id);
    expect(unrecorded.sort()).toEqual(['ks-2015-3-13-2014', 'vas-2003-9121-7064-2003', 'vas-2019-15928-12751-2018']);
  });

  describe('a search that finds nothing says why, as a civil lawyer needs it', () => {
    /** The line `pravo search` prints for the request, from the sandbox's account. */
    const why = (request: SearchRequest): string => {
      const response = search(index(), request);
      expect(response.results).toEqual([]);
      return noResultsLine({ request, reason: noResultsReasonOf(response)! });
    };

    it('„неустойка“ at the ВКС: its 12 decisions are of the criminal college; the statutes and two ВАС decisions hold the word', () => {
      const line = why({ query: 'неустойка', source_types: ['high_courts_cases'], court_ids: [1] });
      expect(line).toContain('--court leaves 12 (Върховен касационен съд; 2015–2024; Първо наказателно отделение 5, Трето наказателно отделение 4, Второ наказателно отделение 3)');
      expect(line).toMatch(/none of them holds the query's words\. Outside these filters, \d+ documents hold words of the query \(bulgarian_laws_regulations \d+, high_courts_cases \d+; Върховен административен съд \d+\): widen or drop --type and --court to see them\.$/);
    });

    it('the ВАС from 2030: the date of its latest decision', () => {
      const line = why({ query: 'наредба', court_ids: [2], date_from: '2030-01-01' });
      expect(line).toMatch(/--court leaves 314 \(Върховен административен съд; 2002–2026; .*\), and --from leaves none of them: the latest is of 2026-\d\d-\d\d\./);
    });

    it('a judge the corpus does not name: nearest names, the number of judges, the decisions without a panel', () => {
      const line = why({ query: 'наредба', judge_name: 'Иван Иванов Петров' });
      expect(line).toMatch(/--judge leaves none of them: no judge of their panels is named like „Иван Иванов Петров“ \(nearest: [^)]*Иванова[^)]*\); the panels name \d{3} judges \(`pravo catalog judges` lists them\), and 3 of the decisions record no panel\./);
    });

    it('a district court: no decisions of it; the courts that have them, each with its years', () => {
      const plovdiv = index().courts().find((c) => c.name === 'Районен съд – Пловдив')!;
      const line = why({ query: 'неустойка', court_ids: [plovdiv.court_id] });
      expect(line).toContain(
        'of 475 documents (Върховен административен съд 314 (2002–2026), Конституционен съд 149 (2003–2026), Върховен касационен съд 12 (2015–2024)), ' +
          'and --court leaves none of them: the corpus holds no decisions of that court.',
      );
    });

    it('words no document holds: the spelling, or other words', () => {
      expect(why({ query: 'шмрцхщ блурпфф' })).toMatch(/: none of the \d+ documents searched holds the query's words; check their spelling or try other words\.$/);
      expect(why({ query: 'шмрцхщ', source_types: ['high_courts_cases'] })).toMatch(/No document of the corpus holds them, whatever the filters: try other words\.$/);
    });
  });
});
