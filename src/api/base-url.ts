/**
 * Validation of the service's base URL (spec: "Base address: {base_url}. All paths below are relative to it").
 * A key must never be placed in a URL (spec: Authentication, rule 2), so a base URL that carries credentials or a
 * query string is refused outright rather than cleaned.
 */
import { InvalidBaseUrlError } from './errors.js';

/**
 * Parses and checks a base URL: `http:` or `https:`, no user name or password, no query string, no fragment, and no
 * trailing `/v1` (the client adds `/v1/...` itself). A path prefix is kept (a service behind a proxy at `/legal`).
 * Returns the normalized URL string without a trailing slash, e.g. `https://api.example.bg/legal`.
 * @throws InvalidBaseUrlError saying what is wrong; the message never repeats credentials or query values.
 */
export function normalizeBaseUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new InvalidBaseUrlError('The base URL is not a valid URL; give it like https://api.example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidBaseUrlError(`The base URL must start with https:// or http://, not ${url.protocol}//`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new InvalidBaseUrlError(
      'The base URL carries credentials (user:password@); secrets never go in URLs. Remove them; the key is sent in a header.',
    );
  }
  if (url.search !== '' || input.includes('?')) {
    throw new InvalidBaseUrlError(
      'The base URL carries a query string; parameters (and keys) never go in the base URL. Remove everything from "?" on.',
    );
  }
  if (url.hash !== '') {
    throw new InvalidBaseUrlError('The base URL carries a fragment (#...); remove it.');
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (/\/v1$/i.test(path)) {
    throw new InvalidBaseUrlError(
      `The base URL ends in /v1, but /v1 is added to every path by the client; use ${url.origin}${path.slice(0, -3)}`,
    );
  }
  return `${url.origin}${path}`;
}

/** Whether the URL's host is a loopback address (127.0.0.0/8, ::1, localhost). */
export function isLoopbackUrl(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
