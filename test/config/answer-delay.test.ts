/** `PRAVO_SANDBOX_ANSWER_DELAY`: the answer delay of `--sandbox` (and of `sandbox serve` without `--answer-delay`). */
import { describe, expect, it } from 'vitest';
import { answerDelayFromEnv } from '../../src/config/sandbox.js';
import { UsageError } from '../../src/errors/cli.js';

describe('PRAVO_SANDBOX_ANSWER_DELAY', () => {
  it('is the sandbox default (undefined) when unset or empty, else the seconds given, decimals allowed', () => {
    expect(answerDelayFromEnv({})).toBeUndefined();
    expect(answerDelayFromEnv({ PRAVO_SANDBOX_ANSWER_DELAY: ' ' })).toBeUndefined();
    expect(answerDelayFromEnv({ PRAVO_SANDBOX_ANSWER_DELAY: '0' })).toBe(0);
    expect(answerDelayFromEnv({ PRAVO_SANDBOX_ANSWER_DELAY: '1.5' })).toBe(1.5);
    expect(answerDelayFromEnv({ PRAVO_SANDBOX_ANSWER_DELAY: '3600' })).toBe(3600);
  });

  it.each(['-1', 'soon', '3601', '1e3', '\u001b[31m2'])('refuses %j with a usage error naming the variable, sanitized', (value) => {
    let error: unknown;
    try {
      answerDelayFromEnv({ PRAVO_SANDBOX_ANSWER_DELAY: value });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(/^PRAVO_SANDBOX_ANSWER_DELAY takes a number of seconds from 0 to 3600, not "/);
    expect((error as Error).message).not.toContain('\u001b');
  });
});
