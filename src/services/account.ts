/**
 * The account as `pravo account` shows it and `pravo login` checks a session token against it (spec: GET
 * /v1/account, authenticated with the user-session token).
 */
import type { AccountFacts } from '../api/account.js';
import type { LegalResearchClient } from '../api/client.js';
import type { Factory } from '../factory.js';
import { waitWithSpinner } from './waiting.js';

/**
 * `GET /v1/account` behind a spinner labelled `label`, read (`readAccount`): the raw body and the facts. Sent with
 * `client` when given (a session token not stored yet), else with the run's client.
 * @throws the request's errors (a `SessionError` when the token is refused).
 */
export async function fetchAccount(
  factory: Factory,
  label = 'Fetching the account',
  client?: LegalResearchClient,
): Promise<{ raw: string; account: AccountFacts }> {
  const sender = client ?? (await factory.client());
  const response = await waitWithSpinner(factory, label, () => sender.account.retrieve({ signal: factory.signal }));
  const { readAccount } = await import('../api/account.js');
  return { raw: response.raw, account: readAccount(response.data) };
}
