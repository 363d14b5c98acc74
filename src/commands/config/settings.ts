/** Settings `pravo config set` and `unset` accept, and what each is (light: read at registration for help). */
export const SETTINGS = {
  'base-url': 'base URL of the service, without /v1 (per profile)',
  'auth-header': 'x-api-key (default) or bearer, for proxies that drop custom headers (per profile)',
  sandbox: 'on: the API commands of this profile run against the in-process sandbox, as with --sandbox; off (default): against the service (per profile)',
  'sandbox-corpus': 'corpus file or directory used by the sandbox when --corpus and PRAVO_SANDBOX_CORPUS are not given (global)',
} as const;

/** A setting name. */
export type Setting = keyof typeof SETTINGS;
