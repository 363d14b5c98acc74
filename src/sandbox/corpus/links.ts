/**
 * The public pages of acts (`shared/corpus/README.md`, section "links/": `bg-act-links.json`, the lex.bg page of 53
 * codes and laws), read as an input of the index and matched to the documents they are the page of: a document
 * without a `url` (the Akoma Ntoso acts have none) gets the page's, and a document whose `url` is that page gets
 * `url_as_of`, the date of the text the page shows. A page shows the act's current text, which is newer than a text
 * here that is as first published (the Закон за данък върху добавената стойност of `akn/` is as of 2006): the CLI says
 * so wherever it shows or opens such a link (`render/fields.ts`, `linkNoteOf`).
 *
 * Matching (see {@link matchActLinks}): a consolidated text read from lex.bg (`ldoc-<lex_id>`) is the page of its id;
 * any other statute is a page's when its title is the page's title (compared by `titleKey`: case, quotation marks,
 * spacing aside; the page title's renaming note „(загл. изм. - ДВ, бр. 67 от 2003 г.)“ left out; an Akoma Ntoso title
 * cut short with `…` may stop inside the page's title) and it is that act, not another of the same title: its first
 * publication is within {@link LINK_MAX_DAYS} of the page's `published` date (two acts of one title, such as the
 * Закон за обществените поръчки of 2004 and of 2016, are years apart), the nearest when several are; a page without a
 * `published` date takes a title only when one document has it. An act amending another („Закон за изменение и
 * допълнение на …“) never takes a page.
 */
import { AMENDING_TITLE } from '../../shared/act-titles.js';
import { isCutTitle, titleKey } from './collect.js';
import { readJsonArrayInput, type CorpusDocument, type CorpusError } from './reader.js';

/** One entry of the links file: an act's public page. */
export interface ActLink {
  /** The act's title in sentence case, as lex.bg writes it, sometimes with its renaming note. */
  title: string;
  /** The page: `https://lex.bg/laws/ldoc/<lex_id>`. */
  url: string;
  /** lex.bg's id of the act (may be negative: `-14917630`). */
  lex_id: string;
  /** First publication of the act, `YYYY-MM-DD`; null when the file gives none. */
  published: string | null;
  /** Latest amendment of the text the page shows, `YYYY-MM-DD`; null when the file gives none. */
  updated: string | null;
}

/** What {@link matchActLinks} did. */
export interface LinkedDocuments {
  /** Documents that had no `url` and got their page's. */
  filled: number;
  /** Documents that got `url_as_of` (those filled, and those whose `url` already was the page). */
  dated: number;
}

/** Most days between a document's first publication and its page's `published` date (lex.bg's lags some: 54 days). */
export const LINK_MAX_DAYS = 183;

/** A `YYYY-MM-DD` date. */
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks one entry; returns the link, or a message naming the field that is wrong. */
function validateLink(value: unknown): ActLink | string {
  if (!isObject(value)) return 'a link must be a JSON object';
  for (const field of ['title', 'url', 'lex_id'] as const) {
    if (typeof value[field] !== 'string' || value[field].trim() === '') return `missing or invalid required field "${field}" (a non-empty string)`;
  }
  if (!/^https:\/\/[^\s"<>\\`]+$/u.test(value.url as string)) return 'field "url" must be an https link';
  for (const field of ['published', 'updated'] as const) {
    const date = value[field];
    if (date !== undefined && date !== null && (typeof date !== 'string' || !DATE.test(date))) return `field "${field}" must be a date YYYY-MM-DD or null`;
  }
  return {
    title: value.title as string,
    url: value.url as string,
    lex_id: (value.lex_id as string).trim(),
    published: (value.published as string | null | undefined) ?? null,
    updated: (value.updated as string | null | undefined) ?? null,
  };
}

/**
 * Reads and checks a links file in the format of `bg-act-links.json` (a JSON array of `{title, url, lex_id,
 * published, updated, source}`; `source` and other fields are not read). Entries in file order.
 * @throws CorpusError (`links file FILE…`) when the file is missing, unreadable, not a regular file or larger than 16 MiB, is not JSON or
 *   not an array, or an entry is not a link (the message and `entry` name the 1-based entry and the field).
 */
export async function readActLinks(path: string): Promise<ActLink[]> {
  const links: ActLink[] = [];
  await readJsonArrayInput(path, 'links file', 'links', (entry) => {
    const link = validateLink(entry);
    if (typeof link === 'string') return link;
    links.push(link);
    return undefined;
  });
  return links;
}

/** A link's title as compared: {@link titleKey} without its renaming note („(загл. изм. - ДВ, бр. 67 от 2003 г.)“). */
function linkTitleKey(title: string): string {
  return titleKey(title.replace(/\s*\(\s*загл\.\s*изм\.[^()]*\)\s*$/iu, ''));
}

/** Days between two `YYYY-MM-DD` dates (absolute); Infinity when either is missing. */
function daysBetween(a: string | null | undefined, b: string | null | undefined): number {
  if (!a || !b || !DATE.test(a) || !DATE.test(b)) return Infinity;
  return Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / 86_400_000;
}

/**
 * How far a document's first publication is from a date: a consolidated text's `date` (its first publication); a text
 * as published, the nearer of its `date` and `as_of` (the National Assembly's `date` is the bill's filing, its `as_of`
 * the promulgation).
 */
function distance(document: CorpusDocument, published: string | null): number {
  if (document.consolidated === true) return daysBetween(document.date, published);
  return Math.min(daysBetween(document.date, published), daysBetween(document.as_of, published));
}

/** Whether a document's title is a link's: equal keys, or a title cut short (`…`) that starts the link's. */
function titleFits(document: CorpusDocument, key: string): boolean {
  if (isCutTitle(document.title)) {
    const cut = titleKey(document.title.replace(/…\s*$/u, ''));
    return cut.length >= 20 && key.startsWith(cut);
  }
  return titleKey(document.title) === key;
}

/**
 * Gives the documents their pages (see the module comment), in place: `url` when a document has none (or an empty
 * one), and `url_as_of` (the link's `updated`, when the file gives it) when its `url` is the page. Court decisions are
 * never matched.
 * @returns how many documents got a `url`, and how many a `url_as_of`.
 */
export function matchActLinks(documents: CorpusDocument[], links: readonly ActLink[]): LinkedDocuments {
  const statutes = documents.filter((d) => d.court_id == null && !AMENDING_TITLE.test(d.title));
  const byId = new Map(statutes.map((d) => [d.document_id, d]));
  const result: LinkedDocuments = { filled: 0, dated: 0 };
  const taken = new Set<CorpusDocument>();
  for (const link of links) {
    let document = byId.get(`ldoc-${link.lex_id}`);
    if (document === undefined) {
      const key = linkTitleKey(link.title);
      const candidates = statutes.filter((d) => !taken.has(d) && titleFits(d, key));
      if (link.published === null) {
        document = candidates.length === 1 && !isCutTitle(candidates[0]!.title) ? candidates[0] : undefined;
      } else {
        const near = candidates.map((d) => ({ d, days: distance(d, link.published) })).filter((c) => c.days <= LINK_MAX_DAYS);
        near.sort((a, b) => a.days - b.days);
        document = near[0]?.d;
      }
    }
    if (document === undefined || taken.has(document)) continue;
    taken.add(document);
    if (document.url === undefined || document.url.trim() === '') {
      document.url = link.url;
      result.filled++;
    }
    if (document.url === link.url && link.updated !== null) {
      document.url_as_of = link.updated;
      result.dated++;
    }
  }
  return result;
}
