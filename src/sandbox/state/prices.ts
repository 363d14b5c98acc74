/**
 * The sandbox's unit prices (spec: Key and account endpoints: "Unit prices are set by the server and cannot be changed
 * by the client"; their values are not shown). These numbers are the sandbox's own, for clients to display and test
 * with, not the live service's: the price of one unit consumed beyond the quota (overage), per quota kind, in euros.
 * `GET /v1/account` shows them; `PATCH /v1/account/overages` refuses any attempt to set them.
 */
import type { UnitPrices } from '../../contract/types.js';

/**
 * Price of one unit consumed beyond the quota (overage), per kind, in `currency` (ISO 4217): a search 0.02 EUR, a
 * document retrieval 0.01 EUR, an answer job 0.25 EUR. Frozen; {@link unitPrices} gives a copy.
 */
export const UNIT_PRICES: Readonly<UnitPrices> = Object.freeze({ currency: 'EUR', search: 0.02, retrieval: 0.01, answers: 0.25 });

/** A fresh copy of {@link UNIT_PRICES}, for a response body. */
export function unitPrices(): UnitPrices {
  return { ...UNIT_PRICES };
}
