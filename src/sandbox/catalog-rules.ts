/**
 * The catalog's rules (spec: GET /v1/catalog/source-types; Search result, `collection`), with no storage behind them:
 * the Bulgarian names of the known source types ({@link SOURCE_TYPE_NAMES}), the opaque `collection` of a source type
 * ({@link collectionOf}), and how the corpus's source types become catalog entries ({@link sourceTypeEntries}: name,
 * `case_law`, order).
 *
 * Used by the index build (`corpus/index-build.ts`: each document's `collection`), by the index (`corpus/index-db.ts`:
 * `SearchIndex.sourceTypes`) and by the catalog route (`routes/catalog.ts`: the known types the corpus lacks), so it
 * lives at the root of the sandbox, below all three.
 */
import { createHash } from 'node:crypto';
import { isCourtSourceType, KNOWN_SOURCE_TYPES, type SourceTypeEntry } from '../contract/types.js';

/** Bulgarian names of the known source types (`GET /v1/catalog/source-types`), by source type id. */
export const SOURCE_TYPE_NAMES: Readonly<Record<string, string>> = {
  [KNOWN_SOURCE_TYPES.laws]: 'Закони и подзаконови нормативни актове',
  [KNOWN_SOURCE_TYPES.highCourts]: 'Съдебна практика на върховните съдилища',
};

/**
 * The opaque `collection` value of a source type: `c_` + the first 10 hex digits of sha256(source_type) (UTF-8).
 * Stable across corpora and runs; deliberately not human-readable (spec: clients must not derive meaning from it).
 */
export function collectionOf(sourceType: string): string {
  return 'c_' + createHash('sha256').update(sourceType, 'utf8').digest('hex').slice(0, 10);
}

/** What the corpus holds of one source type: the counts {@link sourceTypeEntries} turns into a catalog entry. */
export interface SourceTypeCount {
  /** The source type id as the corpus writes it (`bulgarian_laws_regulations`, `high_courts_cases`, or another). */
  source_type: string;
  /** Documents of this type in the corpus (at least 1). */
  document_count: number;
  /** Whether at least one document of this type carries a `court_id`. */
  has_court: boolean;
}

/** The known source types listed first, in this order; the others follow by id. */
const SOURCE_TYPE_ORDER: readonly string[] = [KNOWN_SOURCE_TYPES.laws, KNOWN_SOURCE_TYPES.highCourts];

/**
 * The catalog entries (`{id, name, case_law, document_count}`) of the corpus's source types, ordered
 * `bulgarian_laws_regulations`, `high_courts_cases`, then the others by id (code-unit order). `name`: the Bulgarian
 * name of a known type ({@link SOURCE_TYPE_NAMES}), the id itself for others. `case_law`: for a known type,
 * `isCourtSourceType` (`high_courts_cases` yes, `bulgarian_laws_regulations` no); an unknown type is case law when at
 * least one of its documents carries a `court_id`. New objects; `counts` is not changed.
 */
export function sourceTypeEntries(counts: readonly SourceTypeCount[]): SourceTypeEntry[] {
  const rank = (id: string): number => {
    const i = SOURCE_TYPE_ORDER.indexOf(id);
    return i === -1 ? SOURCE_TYPE_ORDER.length : i;
  };
  return counts
    .map((r) => ({
      id: r.source_type,
      name: SOURCE_TYPE_NAMES[r.source_type] ?? r.source_type,
      case_law: isCourtSourceType(r.source_type) ?? r.has_court,
      document_count: r.document_count,
    }))
    .sort((a, b) => rank(a.id) - rank(b.id) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
