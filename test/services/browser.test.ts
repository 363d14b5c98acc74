/**
 * `src/services/browser.ts`: which links a server sends `pravo open` may use (only absolute http: and https: links,
 * unchanged), how BROWSER is read (commands separated by `:`, words without a shell, `%s`), the platform's openers,
 * trying openers in order, and the real launcher against small node programs (never a browser).
 */
import { describe, expect, it } from 'vitest';
import { RefusedDataError } from '../../src/errors/cli.js';
import { exitCodeOf } from '../../src/errors/exit.js';
import {
  MAX_URL_LENGTH,
  browserCommands,
  checkOpenableUrl,
  mixedScriptNote,
  noBrowserNote,
  openInBrowser,
  openableUrl,
  platformOpeners,
  shownLink,
  spawnLauncher,
  type Argv,
  type Launcher,
} from '../../src/services/browser.js';
import { hasControlSequences } from '../../src/shared/sanitize.js';

const URL_1 = 'https://www.parliament.bg/bg/laws/ID/14715';

describe('checkOpenableUrl', () => {
  it.each([
    URL_1,
    'http://example.invalid/x',
    'HTTPS://EXAMPLE.INVALID/Path?q=1#frag',
    'https://example.invalid:8443/a/b?x=1&y=2',
    'https://example.invalid/закон/чл-45?търси=да',
    'https://example.invalid/a%20b%22c',
    "https://example.invalid/a?b=$(x);c='d'",
    'https://[::1]:8080/x',
  ])('accepts %s, unchanged', (url) => {
    expect(checkOpenableUrl(url)).toEqual({ ok: true, url });
  });

  it.each([
    ['javascript:alert(1)', 'it is a javascript: link, not an http: or https: one'],
    ['JavaScript:alert(document.cookie)', 'it is a javascript: link'],
    ['file:///etc/passwd', 'it is a file: link'],
    ['FILE:///C:/Windows/win.ini', 'it is a file: link'],
    ['data:text/html,<script>alert(1)</script>', 'characters a link never holds unencoded'],
    ['data:text/html;base64,PHNjcmlwdD4=', 'it is a data: link'],
    ['vbscript:msgbox(1)', 'it is a vbscript: link'],
    ['ftp://example.invalid/x', 'it is a ftp: link'],
    ['/v1/documents?document_id=x', 'it is not an absolute link'],
    ['../etc/passwd', 'it is not an absolute link'],
    ['www.example.invalid/x', 'it is not an absolute link'],
    ['', 'it is empty'],
    ['https:example.invalid/x', 'it does not name a host right after http:// or https://'],
    ['https:///x', 'it does not name a host'],
    ['https://user:secret@example.invalid/', 'it carries a user name or password'],
    ['https://user@example.invalid/', 'it carries a user name or password'],
    ['https://@example.invalid/', 'it carries a user name or password'],
    ['https://example.invalid/a b', 'white space or control characters'],
    [' https://example.invalid/', 'white space or control characters'],
    ['https://example.invalid/\n', 'white space or control characters'],
    ['https://example.invalid/\tx', 'white space or control characters'],
    ['java\tscript:alert(1)', 'white space or control characters'],
    ['https://example.invalid/\u0000', 'white space or control characters'],
    ['https://example.invalid/\u001b[31mred', 'white space or control characters'],
    ['https://example.invalid/\u202egnp.exe', 'white space or control characters'],
    ['https://example.invalid/\u200bx', 'white space or control characters'],
    ['https://example.invalid/\u00a0x', 'white space or control characters'],
    ['https://example.invalid/\u0085x', 'white space or control characters'],
    ['https://good.example\\@evil.example/', 'characters a link never holds unencoded'],
    ['https://example.invalid/"onmouseover', 'characters a link never holds unencoded'],
    ['https://example.invalid/`x`', 'characters a link never holds unencoded'],
    [`https://example.invalid/${'a'.repeat(MAX_URL_LENGTH)}`, `pravo opens links of up to ${MAX_URL_LENGTH}`],
  ])('refuses %j: %s', (url, reason) => {
    const check = checkOpenableUrl(url);
    expect(check.ok).toBe(false);
    expect(check.ok ? '' : check.reason).toContain(reason);
  });
});

describe('openableUrl', () => {
  it('returns an accepted link unchanged', () => {
    expect(openableUrl(URL_1, 'result 1')).toBe(URL_1);
  });

  it('throws RefusedDataError (exit 1) naming the link sanitized, why, and what to do instead', () => {
    const hostile = 'javascript:alert(1)//\u001b]8;;https://example.invalid\u0007\u202e';
    let error: unknown;
    try {
      openableUrl(hostile, 'result 2 of the last search ("Т")', '`pravo doc 2` prints the document itself.');
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(RefusedDataError);
    expect(exitCodeOf(error)).toBe(1);
    const message = (error as Error).message;
    expect(message).toMatch(/^The server's url for result 2 of the last search \("Т"\) was refused, and nothing was opened: "javascript:alert\(1\)\/\/.*": it contains white space or control characters\. pravo opens only http: and https: links\. `pravo doc 2` prints the document itself\.$/);
    expect(hasControlSequences(message)).toBe(false);
  });

  it('cuts a long refused link to 200 characters in the message', () => {
    const message = (() => {
      try {
        openableUrl(`javascript:${'x'.repeat(1000)}`, 'result 1');
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toContain(`"javascript:${'x'.repeat(188)}…"`);
    expect(message.length).toBeLessThan(400);
  });
});

describe('browserCommands (BROWSER)', () => {
  const url = 'https://example.invalid/a?b=1&c=%s%25';

  it('one command: the link appended as its last argument', () => {
    expect(browserCommands('firefox', url, ':')).toEqual({ commands: [['firefox', url]], invalid: [] });
    expect(browserCommands('  firefox   --new-window  ', url, ':').commands).toEqual([['firefox', '--new-window', url]]);
  });

  it('several, separated by the delimiter, in order; empty entries skipped', () => {
    expect(browserCommands('::firefox:chromium --incognito:', url, ':').commands).toEqual([
      ['firefox', url],
      ['chromium', '--incognito', url],
    ]);
  });

  it('%s stands for the link (also inside a word), %% for a %; the link is never read for %s itself', () => {
    expect(browserCommands('browser --url=%s --flag', url, ':').commands).toEqual([['browser', `--url=${url}`, '--flag']]);
    expect(browserCommands('browser %s %s', url, ':').commands).toEqual([['browser', url, url]]);
    expect(browserCommands('browser 100%% %%s', url, ':').commands).toEqual([['browser', '100%', '%s', url]]);
  });

  it('words without a shell: quotes keep spaces, nothing else is special', () => {
    expect(browserCommands(`"/opt/My Browser/browser" 'a b' $HOME;x|y&`, url, ':').commands).toEqual([
      ['/opt/My Browser/browser', 'a b', '$HOME;x|y&', url],
    ]);
    expect(browserCommands('"C:\\Program Files\\Browser\\b.exe" %s;msedge', url, ';').commands).toEqual([
      ['C:\\Program Files\\Browser\\b.exe', url],
      ['msedge', url],
    ]);
  });

  it('an entry with an unbalanced quote is reported, not run', () => {
    expect(browserCommands('"unclosed %s:firefox', url, ':')).toEqual({ commands: [['firefox', url]], invalid: ['"unclosed %s'] });
  });
});

describe('platformOpeners', () => {
  it('macOS open, Windows rundll32 (no cmd), xdg-open on Linux and the BSDs, wslview first under WSL', () => {
    expect(platformOpeners(URL_1, { platform: 'darwin', release: '23.0.0', env: {} })).toEqual([['open', URL_1]]);
    expect(platformOpeners(URL_1, { platform: 'win32', release: '10.0.22631', env: {} })).toEqual([['rundll32', 'url.dll,FileProtocolHandler', URL_1]]);
    expect(platformOpeners(URL_1, { platform: 'linux', release: '6.8.0-45-generic', env: {} })).toEqual([
      ['xdg-open', URL_1],
      ['x-www-browser', URL_1],
    ]);
    expect(platformOpeners(URL_1, { platform: 'freebsd', release: '14.1-RELEASE', env: {} })[0]).toEqual(['xdg-open', URL_1]);
    const wsl = [
      ['wslview', URL_1],
      ['xdg-open', URL_1],
    ];
    expect(platformOpeners(URL_1, { platform: 'linux', release: '5.15.153.1-microsoft-standard-WSL2', env: {} })).toEqual(wsl);
    expect(platformOpeners(URL_1, { platform: 'linux', release: '6.8.0', env: { WSL_DISTRO_NAME: 'Ubuntu' } })).toEqual(wsl);
  });
});

describe('openInBrowser', () => {
  /** A launcher that starts only the programs named in `working`, and records every call. */
  const launcher = (working: string[]): { launch: Launcher; calls: Argv[] } => {
    const calls: Argv[] = [];
    return {
      calls,
      launch: async (argv) => {
        calls.push(argv);
        return working.includes(argv[0]!) ? { started: true } : { started: false, reason: 'not found' };
      },
    };
  };

  it('tries the platform openers in order until one starts', async () => {
    const { launch, calls } = launcher(['x-www-browser']);
    const outcome = await openInBrowser(URL_1, { env: {}, launch, platform: 'linux', release: '6.8.0' });
    expect(outcome).toEqual({ opened: true, program: 'x-www-browser' });
    expect(calls).toEqual([
      ['xdg-open', URL_1],
      ['x-www-browser', URL_1],
    ]);
  });

  it('with BROWSER, only its commands (the delimiter of the platform), and says what failed', async () => {
    const { launch, calls } = launcher([]);
    const outcome = await openInBrowser(URL_1, { env: { BROWSER: 'a %s:"b' }, launch, platform: 'linux', release: '6.8.0' });
    expect(calls).toEqual([['a', URL_1]]);
    expect(outcome).toEqual({
      opened: false,
      fromBrowserVariable: true,
      failures: [
        { program: '"b', reason: 'an unbalanced quote' },
        { program: 'a', reason: 'not found' },
      ],
    });
    expect(noBrowserNote(outcome as Extract<typeof outcome, { opened: false }>)).toBe(
      'No browser could be started ("b: an unbalanced quote; a: not found), so the link is printed instead. ' +
        'Correct BROWSER (browser commands separated by ":", %s standing for the link), or unset it to use the system\'s opener; --print prints the link without trying.',
    );
    const windows = launcher(['b']);
    await openInBrowser(URL_1, { env: { BROWSER: 'a;b' }, launch: windows.launch, platform: 'win32', release: '10.0' });
    expect(windows.calls).toEqual([
      ['a', URL_1],
      ['b', URL_1],
    ]);
  });

  it('a launcher that throws counts as a failure; the note names the platform openers and BROWSER', async () => {
    const launch: Launcher = async () => {
      throw new Error('spawn EPERM');
    };
    const outcome = await openInBrowser(URL_1, { env: { BROWSER: '' }, launch, platform: 'darwin', release: '23.0.0' });
    expect(outcome).toEqual({ opened: false, fromBrowserVariable: false, failures: [{ program: 'open', reason: 'spawn EPERM' }] });
    expect(noBrowserNote(outcome as Extract<typeof outcome, { opened: false }>)).toContain('Set BROWSER to a browser command (e.g. `export BROWSER=firefox`)');
  });
});

describe('shownLink: an internationalized host', () => {
  it('leaves a link with an ASCII host as it is, nothing added', () => {
    expect(shownLink(URL_1)).toEqual({ url: URL_1 });
    expect(shownLink('https://EXAMPLE.invalid:8443/тест?a=1#b')).toEqual({ url: 'https://EXAMPLE.invalid:8443/тест?a=1#b' });
  });

  it('writes a host that mixes Latin and Cyrillic letters in its ASCII form, keeping the rest of the link as sent', () => {
    // "lеx.bg" with a Cyrillic е: it looks like lex.bg.
    expect(shownLink('https://l\u0435x.bg/a/тест?b=1#c')).toEqual({
      url: 'https://xn--lx-nlc.bg/a/тест?b=1#c',
      asciiHost: 'xn--lx-nlc.bg',
      unicodeHost: 'l\u0435x.bg',
      mixedScripts: ['Latin', 'Cyrillic'],
    });
    // The same host percent-encoded, in capitals, with a port, or already in punycode.
    expect(shownLink('https://l%D0%B5x.bg/x').url).toBe('https://xn--lx-nlc.bg/x');
    expect(shownLink('HTTPS://L\u0415X.BG:8443/x').url).toBe('HTTPS://xn--lx-nlc.bg:8443/x');
    expect(shownLink('https://xn--lx-nlc.bg/x').url).toBe('https://xn--lx-nlc.bg/x');
  });

  it('keeps a host all of one script (правосъдие.бг) as sent, giving its ASCII form beside it', () => {
    expect(shownLink('https://правосъдие.бг/x')).toEqual({ url: 'https://правосъдие.бг/x', asciiHost: 'xn--80aegeo8aeim4g.xn--90ae', unicodeHost: 'правосъдие.бг' });
    // Each label is looked at alone: a Cyrillic name under a Latin top-level domain mixes nothing.
    expect(shownLink('https://правосъдие.bg/x').mixedScripts).toBeUndefined();
  });

  it('the note names the scripts, the host as its letters read and its ASCII form; none for other links', () => {
    expect(mixedScriptNote(shownLink('https://l\u0435x.bg/x'))).toBe(
      'The link\'s host "l\u0435x.bg" mixes Latin and Cyrillic letters, as names made to look like another site do: it is shown and opened in its ASCII form, xn--lx-nlc.bg.',
    );
    expect(mixedScriptNote(shownLink('https://правосъдие.бг/x'))).toBeUndefined();
    expect(mixedScriptNote(shownLink(URL_1))).toBeUndefined();
  });
});

describe('spawnLauncher (node programs, never a browser)', () => {
  const node = process.execPath;

  it('a program that is not there: not found', async () => {
    expect(await spawnLauncher(5000)(['/nonexistent/pravo-test-browser', URL_1], process.env)).toEqual({ started: false, reason: 'not found' });
  });

  it('exit 0 within the grace period: started; another exit code: not started', async () => {
    expect(await spawnLauncher(5000)([node, '-e', '', URL_1], process.env)).toEqual({ started: true });
    expect(await spawnLauncher(5000)([node, '-e', 'process.exit(3)', URL_1], process.env)).toEqual({ started: false, reason: 'exited with code 3' });
  });

  it("the program never sees pravo's credentials: PRAVO_API_KEY and PRAVO_SESSION_TOKEN are not in its environment", async () => {
    const env = { ...process.env, PRAVO_API_KEY: 'sbx_live_EXAMPLEexampleEXAMPLEexample12', PRAVO_SESSION_TOKEN: 'sbx_sess_EXAMPLE', PRAVO_TEST_KEPT: 'yes' };
    // Exits 0 only when both are absent and the other variables are there.
    const check = 'process.exit(process.env.PRAVO_API_KEY === undefined && process.env.PRAVO_SESSION_TOKEN === undefined && process.env.PRAVO_TEST_KEPT === "yes" ? 0 : 3)';
    expect(await spawnLauncher(5000)([node, '-e', check, URL_1], env)).toEqual({ started: true });
  });

  it('still running after the grace period: started, and not waited for', async () => {
    const started = Date.now();
    expect(await spawnLauncher(200)([node, '-e', 'setTimeout(() => {}, 1500)', URL_1], process.env)).toEqual({ started: true });
    expect(Date.now() - started).toBeLessThan(1400);
  });
});
