/**
 * Terminal-safe text (`src/shared/sanitize.ts`): one test per kind of escape sequence or control, each asserting the exact
 * output and that nothing removable is left; white space handling for lines and TSV fields; JSON escaping that keeps
 * the parsed value; and a deterministic property loop over random strings of controls and printable text.
 */
import { describe, expect, it } from 'vitest';
import {
  escapeJsonForTerminal,
  hasControlSequences,
  sanitizeLine,
  sanitizeText,
  sanitizeTsvField,
} from '../../src/shared/sanitize.js';

const ESC = '\x1b';
const BEL = '\x07';
const ST = `${ESC}\\`;

/** Anything that must never survive sanitizeText: ESC, C0 other than TAB/LF, DEL, C1, bidi controls, zero-width characters. */
const FORBIDDEN = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/;

describe('sanitizeText: one case per sequence', () => {
  it.each<[name: string, input: string, expected: string]>([
    ['CSI colour (SGR)', `${ESC}[31mЗакон${ESC}[0m за задълженията`, 'Закон за задълженията'],
    ['CSI colour with 256-colour parameters', `${ESC}[38;5;196mчервено${ESC}[m`, 'червено'],
    ['CSI clear screen and cursor home', `${ESC}[2J${ESC}[Hначало`, 'начало'],
    ['CSI cursor movement', `ред${ESC}[1A${ESC}[2K${ESC}[10;20Hтекст`, 'редтекст'],
    ['CSI private mode (hide cursor)', `a${ESC}[?25lb`, 'ab'],
    ['CSI truncated at end of string', `чл. 1${ESC}[31`, 'чл. 1'],
    ['OSC 0 window title ended by BEL', `${ESC}]0;pwned${BEL}Наредба`, 'Наредба'],
    ['OSC 8 hyperlink ended by ST', `${ESC}]8;;https://evil.example${ST}чл. 45${ESC}]8;;${ST}`, 'чл. 45'],
    ['OSC 52 clipboard write', `x${ESC}]52;c;cm0gLXJmIH4=${BEL}y`, 'xy'],
    ['unterminated OSC runs to the end of the string', `Кодекс${ESC}]0;title and everything after`, 'Кодекс'],
    ['unterminated OSC stops at the next escape', `a${ESC}]0;title${ESC}[1mb`, 'ab'],
    ['DCS ended by ST', `a${ESC}Pq#0;2;0;0;0#1!10~${ST}b`, 'ab'],
    ['APC, PM and SOS strings', `1${ESC}_apc${ST}2${ESC}^pm${ST}3${ESC}Xsos${ST}4`, '1234'],
    ['two-byte escapes: reset (ESC c), charset (ESC (B), save cursor (ESC 7)', `${ESC}ca${ESC}(Bb${ESC}7c`, 'abc'],
    ['lone ESC at the end', `край${ESC}`, 'край'],
    ['8-bit CSI U+009B with parameters and final byte', 'до\x9b31mсле\x9b2J', 'досле'],
    ['8-bit OSC U+009D ended by ST U+009C', 'а\x9d0;title\x9cб', 'аб'],
    ['8-bit OSC U+009D ended by BEL', 'а\x9d8;;https://x.example\x07б', 'аб'],
    ['8-bit DCS U+0090, SOS U+0098, PM U+009E, APC U+009F', '1\x90dcs\x9c2\x98sos\x9c3\x9epm\x9c4\x9fapc\x9c5', '12345'],
    ['an unterminated 8-bit string loses only its introducer', 'чл.\x9d 5 ал. 2', 'чл. 5 ал. 2'],
    ['BEL alone', `звън${BEL}ец`, 'звънец'],
    ['NUL', 'a\x00b\x00', 'ab'],
    ['backspace used to overprint', 'safe\x08\x08\x08\x08evil', 'safeevil'],
    ['DEL', 'a\x7fb', 'ab'],
    ['other C0: VT, FF, SO, SI, FS', 'a\x0bb\x0cc\x0ed\x0fe\x1cf', 'abcdef'],
    ['other C1: NEL U+0085, IND U+0084', 'a\x85b\x84c', 'abc'],
    ['lone CR used to overwrite a line', 'Сума: 1000 лв.\rСума: 1 лв.', 'Сума: 1000 лв.Сума: 1 лв.'],
    ['CR LF becomes LF', 'ред 1\r\nред 2\r\n', 'ред 1\nред 2\n'],
    ['bidi override (Trojan Source)', 'access = "user\u202e \u2066// admin\u2069 \u2066"', 'access = "user // admin "'],
    ['every bidi embedding, override and isolate', '\u202aa\u202bb\u202cc\u202dd\u202ee\u2066f\u2067g\u2068h\u2069', 'abcdefgh'],
    ['bidi marks LRM, RLM and the Arabic letter mark', 'чл.\u200e 5\u200f ал.\u061c 2', 'чл. 5 ал. 2'],
    ['zero-width space, non-joiner, joiner, word joiner and U+FEFF inside words', 'Зак\u200bон з\u200cа з\u200dадълж\u2060енията\ufeff', 'Закон за задълженията'],
    [
      'a mix inside Bulgarian text',
      `${ESC}]0;x${BEL}Чл. 45.${ESC}[1m (1)${ESC}[0m Всеки е длъжен\r да поправи\u202e вредите\x00, ${ESC}[2Jкоито\x9b1m виновно\x07 е причинил.\r\n`,
      'Чл. 45. (1) Всеки е длъжен да поправи вредите, които виновно е причинил.\n',
    ],
  ])('%s', (_name, input, expected) => {
    const output = sanitizeText(input);
    expect(output).toBe(expected);
    expect(hasControlSequences(output)).toBe(false);
    expect(hasControlSequences(input)).toBe(true);
  });
});

describe('sanitizeText: what it keeps', () => {
  it('returns clean text unchanged (the very same string)', () => {
    const text = 'Закон за задълженията и договорите\tчл. 45\n(1) Всеки е длъжен…';
    expect(sanitizeText(text)).toBe(text);
    expect(hasControlSequences(text)).toBe(false);
  });

  it('keeps TAB and LF', () => {
    expect(sanitizeText('a\tb\nc')).toBe('a\tb\nc');
  });

  it('keeps Cyrillic, emoji, combining marks, CJK and ordinary punctuation', () => {
    const text = 'Ѝ й ѝ 👩 ⚖️ e\u0301 é 法律 «цитат» — № 5 § 1 \u00a0 ~!@#$%^&*()[]{}\\|;:\'",.<>/?`';
    expect(sanitizeText(text)).toBe(text);
  });

  it('shows an emoji sequence joined by U+200D as its parts', () => {
    expect(sanitizeText('👩\u200d⚖️')).toBe('👩⚖️');
  });

  it('keeps printable text around removed sequences intact', () => {
    expect(sanitizeText(`[${ESC}[0m]`)).toBe('[]');
    expect(sanitizeText(`${ESC}[31m[31m]`)).toBe('[31m]');
  });

  it('is idempotent', () => {
    const once = sanitizeText(`a${ESC}]0;t${BEL}\r\n${ESC}[1mb\x9b`);
    expect(sanitizeText(once)).toBe(once);
  });
});

describe('sanitizeLine', () => {
  it('collapses TAB, LF and runs of white space to one space and trims the ends', () => {
    expect(sanitizeLine('  Закон\tза\n\n задълженията \u00a0 и  договорите\r\n')).toBe(
      'Закон за задълженията и договорите',
    );
  });

  it('removes control sequences first, without gluing words when they stood between spaces', () => {
    expect(sanitizeLine(`req ${ESC}[31m id-42 ${ESC}]0;t${BEL}\n`)).toBe('req id-42');
  });

  it('collapses Unicode line and paragraph separators', () => {
    expect(sanitizeLine('a\u2028b\u2029c')).toBe('a b c');
  });

  it('gives an empty string for nothing but controls and white space', () => {
    expect(sanitizeLine(` \t\n${ESC}[2J\r `)).toBe('');
  });
});

describe('sanitizeTsvField', () => {
  it('maps undefined and null to the empty string', () => {
    expect(sanitizeTsvField(undefined)).toBe('');
    expect(sanitizeTsvField(null)).toBe('');
  });

  it('writes numbers and booleans with String()', () => {
    expect(sanitizeTsvField(0)).toBe('0');
    expect(sanitizeTsvField(0.75)).toBe('0.75');
    expect(sanitizeTsvField(-3)).toBe('-3');
    expect(sanitizeTsvField(true)).toBe('true');
    expect(sanitizeTsvField(false)).toBe('false');
  });

  it('replaces each run of TAB, CR and LF with one space, keeping other spacing', () => {
    expect(sanitizeTsvField('a\tb\r\nc\n\n\td  e')).toBe('a b c d  e');
    expect(sanitizeTsvField('\tлидер\n')).toBe(' лидер ');
  });

  it('removes control sequences', () => {
    expect(sanitizeTsvField(`${ESC}[31mчервено${ESC}[0m\u202e`)).toBe('червено');
  });

  it('never contains TAB, LF or CR', () => {
    const inputs = ['\t', '\n', '\r', '\r\n', 'a\tb', `x${ESC}[1m\ty\rz\n`, '\u2028\u2029', '\t\t\n\r\r\t'];
    for (const input of inputs) {
      expect(sanitizeTsvField(input)).not.toMatch(/[\t\n\r\u2028\u2029]/);
    }
  });
});

describe('escapeJsonForTerminal', () => {
  const roundTrips = (json: string): string => {
    const output = escapeJsonForTerminal(json);
    expect(JSON.parse(output)).toEqual(JSON.parse(json));
    expect(output).not.toMatch(/[\x80-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/);
    return output;
  };

  it('escapes raw C1 characters inside strings', () => {
    const json = JSON.stringify({ title: 'а\x9b31mб', body: '\x9d0;t\x9c' });
    expect(json).toContain('\x9b'); // JSON.stringify leaves C1 raw
    const output = roundTrips(json);
    expect(output).toBe('{"title":"а\\u009b31mб","body":"\\u009d0;t\\u009c"}');
  });

  it('escapes bidi controls', () => {
    const output = roundTrips(JSON.stringify(['user\u202e', '\u2066x\u2069']));
    expect(output).toBe('["user\\u202e","\\u2066x\\u2069"]');
  });

  it('escapes bidi marks and zero-width characters', () => {
    const output = roundTrips(JSON.stringify(['а\u200eб\u200fв\u061c', 'г\u200bд\u200dе\u2060ж\ufeff']));
    expect(output).toBe('["а\\u200eб\\u200fв\\u061c","г\\u200bд\\u200dе\\u2060ж\\ufeff"]');
  });

  it('keeps an escaped backslash before an escaped character correct', () => {
    roundTrips(JSON.stringify({ path: 'C:\\\x85' }));
  });

  it('leaves JSON without such characters unchanged, pretty-printed or not', () => {
    const json = JSON.stringify({ q: 'неустойка', esc: '\x1b[31m', n: [1, 2.5, null, true] }, null, 2);
    expect(escapeJsonForTerminal(json)).toBe(json);
  });

  it('keeps CR LF line ends but removes a lone CR between tokens', () => {
    expect(escapeJsonForTerminal('{\r\n  "a": 1\r\n}')).toBe('{\r\n  "a": 1\r\n}');
    const output = roundTrips('{"a": "shown",\r "b": "hidden"}');
    expect(output).toBe('{"a": "shown", "b": "hidden"}');
  });

  it('escapes DEL and raw C0 controls even in invalid JSON, so nothing reaches the terminal raw', () => {
    expect(escapeJsonForTerminal('{"a":"\x1b[2J\x7f"}')).toBe('{"a":"\\u001b[2J\\u007f"}');
  });
});

/** A small deterministic PRNG (mulberry32), so the property loop is the same on every run. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Code points the random strings are drawn from: controls, sequence bytes, and printable text of several scripts. */
const ALPHABET: string[] = [
  ...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)),
  ...Array.from({ length: 0x21 }, (_, i) => String.fromCharCode(0x7f + i)),
  '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069',
  '\u200b', '\u200c', '\u200d', '\u200e', '\u200f', '\u061c', '\u2060', '\ufeff',
  '[', ']', '\\', ';', '0', '1', '2', '3', '8', '?', 'm', 'H', 'J', 'P', 'X', '^', '_', '(', 'B', 'c', ' ', '#',
  'а', 'б', 'Ж', 'щ', 'ѝ', 'й', '\u0301', '€', '—', '\u00a0', '\u2028', '👩‍⚖️', '😀', '法', '"',
];

function randomString(random: () => number): string {
  const length = Math.floor(random() * 40);
  let text = '';
  for (let i = 0; i < length; i++) {
    // Favour ESC and the 8-bit introducers so that sequences actually form.
    const r = random();
    if (r < 0.12) text += ESC;
    else if (r < 0.16) text += ['\x9b', '\x9d', '\x90', '\x98', '\x9e', '\x9f', '\x9c'][Math.floor(random() * 7)];
    else text += ALPHABET[Math.floor(random() * ALPHABET.length)];
  }
  return text;
}

describe('property: no control ever survives', () => {
  it('holds for 20,000 random strings of control and printable code points', () => {
    const random = mulberry32(0x5eed_2025);
    /** Plain checks rather than expect() in the loop: the first failure names its input. */
    const check = (ok: boolean, what: string, input: string, output: string): void => {
      if (!ok) throw new Error(`${what}: ${JSON.stringify(input)} → ${JSON.stringify(output)}`);
    };
    for (let i = 0; i < 20_000; i++) {
      const input = randomString(random);
      const text = sanitizeText(input);
      check(!FORBIDDEN.test(text) && !text.includes(ESC), 'sanitizeText left a control', input, text);
      check(!hasControlSequences(text), 'hasControlSequences after sanitizeText', input, text);
      check(sanitizeText(text) === text, 'sanitizeText is not idempotent', input, text);

      const line = sanitizeLine(input);
      check(!FORBIDDEN.test(line) && !/[\t\n]|^\s|\s$/.test(line), 'sanitizeLine', input, line);

      const field = sanitizeTsvField(input);
      check(!FORBIDDEN.test(field) && !/[\t\n\r]/.test(field), 'sanitizeTsvField', input, field);

      const json = JSON.stringify({ v: input, [input]: [input] });
      const escaped = escapeJsonForTerminal(json);
      check(!FORBIDDEN.test(escaped), 'escapeJsonForTerminal left a control', json, escaped);
      check(
        JSON.stringify(JSON.parse(escaped)) === JSON.stringify(JSON.parse(json)),
        'escapeJsonForTerminal changed the value',
        json,
        escaped,
      );
    }
  });
});

describe('performance', () => {
  it('passes a 1 MB clean document through unchanged, and cleans a 1 MB dirty one, quickly', () => {
    const paragraph = 'Чл. 45. (1) Всеки е длъжен да поправи вредите, които виновно е причинил другиму.\n';
    const clean = paragraph.repeat(Math.ceil(1_000_000 / paragraph.length));
    const dirtyParagraph = `${ESC}[1m${paragraph.slice(0, 20)}${ESC}[0m\r${paragraph.slice(20)}\x9d`;
    const dirty = dirtyParagraph.repeat(Math.ceil(1_000_000 / dirtyParagraph.length));
    const start = performance.now();
    expect(sanitizeText(clean)).toBe(clean);
    const cleaned = sanitizeText(dirty);
    const elapsed = performance.now() - start;
    expect(cleaned).toBe(paragraph.repeat(Math.ceil(1_000_000 / dirtyParagraph.length)));
    // Generous bound: a regex pass over 2 MB takes a few ms; a quadratic scan would take seconds.
    expect(elapsed).toBeLessThan(1_000);
  });
});
