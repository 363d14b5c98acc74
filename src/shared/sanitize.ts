/**
 * Terminal-safe text. Every string that comes from a server or a corpus (titles, excerpts, documents, error messages,
 * request ids) passes through here before it reaches a terminal, a TSV line or an error message, so that it can
 * neither drive the terminal (colours, cursor moves, window titles, OSC 8 links, clipboard writes) nor hide or reorder
 * what the reader sees (lone CR overwriting a line, bidi overrides: "Trojan Source", CVE-2021-42574).
 *
 * Two precompiled regexes do all the work: a character class that finds whether there is anything to remove (the fast
 * path returns the input unchanged), and one alternation that removes whole escape sequences first and any remaining
 * control character after. Every sequence begins with a character of that class, so the two always agree.
 */

/**
 * The characters that are removed, alone or as the introducer of a sequence: C0 controls except TAB (U+0009) and LF
 * (U+000A), i.e. including CR and ESC; DEL and every C1 control (U+007F–U+009F); every bidi control: the embeddings
 * and overrides (U+202A–U+202E), the isolates (U+2066–U+2069) and the marks (U+200E LRM, U+200F RLM, U+061C ALM),
 * which reorder or disguise text as well; and the invisible characters that hide inside a word (zero-width space,
 * non-joiner and joiner U+200B–U+200D, word joiner U+2060, U+FEFF zero-width no-break space / BOM), which make two
 * identical-looking strings differ.
 */
const CONTROL_CLASS = '\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\u061c\\u200b-\\u200f\\u202a-\\u202e\\u2060\\u2066-\\u2069\\ufeff';

/** Quick test: is there anything to remove? (Not global: `test` must not keep state.) */
const HAS_CONTROL = new RegExp(`[${CONTROL_CLASS}]`);

/**
 * Everything to remove, longest forms first. Bodies are character classes disjoint from what ends them, so matching is
 * linear in the length of the text.
 *
 * 7-bit (ESC-introduced) forms, removed even when unterminated (ESC never occurs by accident in text):
 * - OSC `ESC ] … (BEL | ESC \ | U+009C)`, or to the next ESC / end of string when unterminated.
 * - DCS, SOS, PM, APC `ESC P|X|^|_ … (ESC \ | U+009C)`, likewise.
 * - CSI `ESC [` parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F, final byte 0x40–0x7E (a truncated CSI
 *   loses what it has).
 * - any other escape: `ESC`, intermediate bytes 0x20–0x2F, a final byte 0x30–0x7E (`ESC c`, `ESC (B`, `ESC 7`,
 *   `ESC #8`), or a lone ESC.
 *
 * 8-bit (C1) forms, removed as a whole only when complete: a stray C1 character in mis-decoded text (cp1251 or
 * cp1252 read as Latin-1) must not swallow the rest of a document. When incomplete, only the C1 character goes (by
 * the last alternative), which leaves plain text the terminal cannot interpret.
 * - CSI U+009B with parameters, intermediates and a final byte.
 * - OSC U+009D … (BEL | U+009C | ESC \); the body stops at any C1 character, which also keeps the scan linear.
 * - DCS U+0090, SOS U+0098, PM U+009E, APC U+009F … (U+009C | ESC \), body as for OSC.
 *
 * Finally any single character of {@link CONTROL_CLASS}; this drops CR from CR LF (leaving LF) and a lone CR.
 */
const REMOVE = new RegExp(
  [
    '\\x1b\\][^\\x07\\x1b\\x9c]*(?:\\x07|\\x1b\\\\|\\x9c)?',
    '\\x1b[PX^_][^\\x1b\\x9c]*(?:\\x1b\\\\|\\x9c)?',
    '\\x1b\\[[\\x30-\\x3f]*[\\x20-\\x2f]*[\\x40-\\x7e]?',
    '\\x1b[\\x20-\\x2f]*[\\x30-\\x7e]?',
    '\\x9b[\\x30-\\x3f]*[\\x20-\\x2f]*[\\x40-\\x7e]',
    '\\x9d[^\\x07\\x1b\\x80-\\x9f]*(?:\\x07|\\x9c|\\x1b\\\\)',
    '[\\x90\\x98\\x9e\\x9f][^\\x1b\\x80-\\x9f]*(?:\\x9c|\\x1b\\\\)',
    `[${CONTROL_CLASS}]`,
  ].join('|'),
  'g',
);

/** White space of any kind (JavaScript `\s`: TAB, LF, CR, NBSP, U+2028/U+2029, U+3000, …), in runs. */
const WHITE_SPACE_RUN = /\s+/g;

/** What breaks a TSV record or field: TAB, CR, LF, and the Unicode line/paragraph separators, in runs. */
const TSV_BREAK_RUN = /[\t\n\r\u2028\u2029]+/g;

/**
 * What {@link escapeJsonForTerminal} rewrites: C0 controls other than TAB, LF and CR, DEL, C1, bidi controls and the
 * zero-width characters of {@link CONTROL_CLASS} (each escaped), and a CR not followed by LF (removed).
 */
const JSON_UNSAFE = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]|\r(?!\n)/g;
const HAS_JSON_UNSAFE = new RegExp(JSON_UNSAFE.source);

/**
 * Text safe for a terminal: removes ESC sequences (CSI, OSC including OSC 8 hyperlinks and an unterminated OSC,
 * DCS/SOS/PM/APC strings, two-byte escapes such as `ESC c` and `ESC (B`), their complete 8-bit forms (U+009B CSI,
 * U+009D OSC, U+0090/U+0098/U+009E/U+009F strings), every other C0 control except TAB and LF, DEL, every other C1
 * control, BEL, CR (so CR LF becomes LF and a lone CR can no longer overwrite a line), every bidi control (U+202A–U+202E,
 * U+2066–U+2069, U+200E, U+200F, U+061C) and the zero-width characters U+200B–U+200D, U+2060 and U+FEFF. Keeps all
 * printable text, Cyrillic, emoji (a sequence joined by U+200D shows as its parts), combining marks, TAB and LF.
 * Returns the input itself when there is nothing to remove. Idempotent.
 */
export function sanitizeText(text: string): string {
  return HAS_CONTROL.test(text) ? text.replace(REMOVE, '') : text;
}

/**
 * {@link sanitizeText}, then every run of white space (LF, TAB, NBSP and the rest of JavaScript's `\s` included)
 * collapsed to one space and the ends trimmed: for table cells, one-line messages, request ids.
 */
export function sanitizeLine(text: string): string {
  return sanitizeText(text).replace(WHITE_SPACE_RUN, ' ').trim();
}

/**
 * A TSV field: `undefined`/`null` → `''`; numbers and booleans as `String(value)`; strings through
 * {@link sanitizeText} with each run of TAB, CR, LF (and U+2028/U+2029, which some readers treat as line breaks)
 * replaced by one space. The result never contains TAB, CR or LF.
 */
export function sanitizeTsvField(value: string | number | boolean | null | undefined): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') return String(value);
  return sanitizeText(value).replace(TSV_BREAK_RUN, ' ');
}

/**
 * For raw JSON printed to a terminal: the same JSON with raw C1 characters (U+0080–U+009F), DEL, the bidi controls and
 * the zero-width characters replaced by their `\u00XX` / `\u202E` escapes (lower-case hex), so that `JSON.parse` of the result equals
 * `JSON.parse` of the input. In valid JSON these can only occur inside strings, where the escapes are valid.
 * Beyond that, for a terminal's sake: a CR not followed by LF (in valid JSON only white space between tokens) is
 * removed, and C0 controls other than TAB, LF and CR (which valid JSON never holds raw) are escaped too, so even
 * invalid JSON cannot drive the terminal. Everything else is left byte for byte; returns the input itself when
 * there is nothing to rewrite.
 */
export function escapeJsonForTerminal(json: string): string {
  if (!HAS_JSON_UNSAFE.test(json)) return json;
  return json.replace(JSON_UNSAFE, (char) =>
    char === '\r' ? '' : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Whether `text` contains anything {@link sanitizeText} would remove (for tests and assertions). */
export function hasControlSequences(text: string): boolean {
  return HAS_CONTROL.test(text);
}
