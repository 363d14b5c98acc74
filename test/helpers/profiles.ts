/** The config file of a test's `PRAVO_CONFIG_DIR`, written and read directly (profiles as pravo stores them). */
import fs from 'node:fs';
import path from 'node:path';

/** Writes `config.json` (0600) in `configDir` with exactly these profiles. */
export function writeProfiles(configDir: string, profiles: Record<string, Record<string, unknown>>): void {
  fs.mkdirSync(configDir, { recursive: true });
  fs.writeFileSync(path.join(configDir, 'config.json'), JSON.stringify({ profiles }), { mode: 0o600 });
}

/** The stored profile `name` of `configDir`'s `config.json` (empty when absent). */
export function readProfile(configDir: string, name = 'default'): Record<string, unknown> {
  const data = JSON.parse(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8')) as { profiles?: Record<string, Record<string, unknown>> };
  return data.profiles?.[name] ?? {};
}

/** Text without terminal escape sequences (colours, cursor moves), for asserting on what a terminal shows. */
export function plain(text: string): string {
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
}
