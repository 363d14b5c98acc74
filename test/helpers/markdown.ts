/**
 * Reading pravo's Markdown (`--format md`) the way a CommonMark renderer with GitHub's footnotes reads it, as far as
 * the tests need: backslash escapes, code spans and autolinks skipped; footnote references and definitions found;
 * markup characters that are left unescaped listed. Not a full parser: enough to tell what a renderer would make of
 * the characters that matter.
 */

/** Characters that start or end markup when not escaped. */
const MARKUP = new Set(['\\', '`', '*', '_', '[', ']', '<', '>', '&', '|', '~', '#']);

/**
 * The characters of `line` a renderer would read as markup: those of {@link MARKUP} not escaped by a backslash,
 * outside code spans (`` `…` ``) and `<http…>` autolinks. A backslash escape consumes the ASCII punctuation after it.
 */
export function unescapedMarkup(line: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (char === '\\' && i + 1 < line.length && /[!-/:-@[-`{-~]/.test(line[i + 1]!)) {
      i++;
      continue;
    }
    if (char === '`') {
      const run = /^`+/.exec(line.slice(i))![0];
      const close = line.indexOf(run, i + run.length);
      if (close >= 0) {
        i = close + run.length - 1;
        continue;
      }
    }
    if (char === '<') {
      const autolink = /^<https?:\/\/[^\s<>]*>/.exec(line.slice(i));
      if (autolink) {
        i += autolink[0].length - 1;
        continue;
      }
    }
    if (MARKUP.has(char)) found.push(char);
  }
  return found;
}

/**
 * What text of escaped inline Markdown renders as: each backslash escape replaced by the character it escapes (a
 * trailing backslash of a hard line break dropped).
 */
export function unescape(markdown: string): string {
  return markdown.replace(/\\\n/g, '\n').replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

/** The footnote references and definitions of a Markdown document, by label, with how often each occurs. */
export interface Footnotes {
  /** `[^label]` in text (not escaped, not a definition), label → count. */
  references: Map<string, number>;
  /** `[^label]:` at the start of a line, label → count. */
  definitions: Map<string, number>;
}

/** Finds the footnote references and definitions of `markdown` (escaped brackets and code spans are not footnotes). */
export function footnotesOf(markdown: string): Footnotes {
  const references = new Map<string, number>();
  const definitions = new Map<string, number>();
  const add = (map: Map<string, number>, label: string): void => {
    map.set(label, (map.get(label) ?? 0) + 1);
  };
  for (const line of markdown.split('\n')) {
    let rest = line;
    const definition = /^ {0,3}\[\^([^\]\s]+)\]:/.exec(line);
    if (definition) {
      add(definitions, definition[1]!);
      rest = line.slice(definition[0].length);
    }
    for (let i = 0; i < rest.length; i++) {
      const char = rest[i]!;
      if (char === '\\') {
        i++;
        continue;
      }
      if (char === '`') {
        const run = /^`+/.exec(rest.slice(i))![0];
        const close = rest.indexOf(run, i + run.length);
        if (close >= 0) i = close + run.length - 1;
        continue;
      }
      const reference = /^\[\^([^\]\s]+)\]/.exec(rest.slice(i));
      if (reference) {
        add(references, reference[1]!);
        i += reference[0].length - 1;
      }
    }
  }
  return { references, definitions };
}

/**
 * The lines of `markdown` that a renderer would start a block with, of the kinds server text must never start:
 * a heading, a quote, a list item, a fence, indented code, a setext underline or thematic break, a table row, HTML,
 * a link reference or footnote definition. `allowed` filters out pravo's own (e.g. its `# ` title).
 */
export function blockStarts(markdown: string, allowed: (line: string) => boolean = () => false): string[] {
  const pattern = /^(?: {0,3}(?:#{1,6}(?:\s|$)|>|[-+*](?:\s|$)|\d{1,9}[.)](?:\s|$)|```|~~~|=+\s*$|-{3,}\s*$|<|\[[^\]]*\]:|\|)| {4,}\S)/;
  return markdown.split('\n').filter((line) => pattern.test(line) && !allowed(line));
}
