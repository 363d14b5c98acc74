/**
 * Validation of the service's base URL (spec: "Base address: {base_url}. All paths below are relative to it").
 * A key must never be placed in a URL (spec: Authentication, rule 2), so a base URL that carries credentials or a
 * query string is refused outright rather than cleaned.
 */
import { ConfigError } from './errors.js';

/**
 * Parses and checks a base URL: `http:` or `https:`, no user name or password, no query string, no fragment, and no
 * trailing `/v1` (pravo adds `/v1/...` itself). A path prefix is kept (a service behind a proxy at `/legal`).
 * Returns the normalized URL string without a trailing slash, e.g. `https://api.example.bg/legal`.
 * @throws ConfigError saying what is wrong; the message never repeats credentials or query values.
 */
export function normalizeBaseUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new ConfigError('The base URL is not a valid URL; give it like https://api.example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`The base URL must start with https:// or http://, not ${url.protocol}//`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new ConfigError(
      'The base URL carries credentials (user:password@); pravo never puts secrets in URLs. Remove them and store the key with `pravo config set-key`.',
    );
  }
  if (url.search !== '' || input.includes('?')) {
    throw new ConfigError(
      'The base URL carries a query string; pravo never puts parameters (or keys) in the base URL. Remove everything from "?" on.',
    );
  }
  if (url.hash !== '') {
    throw new ConfigError('The base URL carries a fragment (#...); remove it.');
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (/\/v1$/i.test(path)) {
    throw new ConfigError(
      `The base URL ends in /v1, but pravo adds /v1 to every path itself; use ${url.origin}${path.slice(0, -3)}`,
    );
  }
  return `${url.origin}${path}`;
}

/** Whether the URL's host is a loopback address (127.0.0.0/8, ::1, localhost). */
export function isLoopbackUrl(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
