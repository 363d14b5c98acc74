/**
 * What a table or text for a terminal must keep at a width: no line wider than the terminal, and every word it was
 * given whole (not broken across lines, not cut with `…`, not left out).
 */
import { stripVTControlCharacters } from 'node:util';

/** The words of an output as a terminal shows them: split at white space and at the table's box-drawing characters. */
function shownWords(output: string): Set<string> {
  return new Set(stripVTControlCharacters(output).split(/[\s│┌┐└┘├┤┬┴┼─]+/u));
}

/**
 * What is wrong with `output` at `width` columns: each line wider than the width, and each word of `texts` (split at
 * white space) that does not appear whole among the output's words. Empty when it fits.
 */
export function fitProblems(output: string, width: number, texts: readonly string[]): string[] {
  const problems: string[] = [];
  for (const line of stripVTControlCharacters(output).split('\n')) {
    if ([...line].length > width) problems.push(`${[...line].length} columns: ${line}`);
  }
  const words = shownWords(output);
  for (const word of texts.flatMap((text) => text.split(/\s+/)).filter((w) => w !== '')) {
    if (!words.has(word)) problems.push(`word not whole: ${word}`);
  }
  return problems;
}
