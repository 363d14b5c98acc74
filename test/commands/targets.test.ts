/** Which flags reach a stored target (`src/services/targets.ts`), as the commands pravo suggests spell them. */
import { describe, expect, it } from 'vitest';
import { flagsToReach } from '../../src/services/targets.js';

describe('flagsToReach', () => {
  it('nothing for the same target; --sandbox for the in-process sandbox; the profile otherwise', () => {
    expect(flagsToReach({ sandbox: false, profile: 'work' }, { sandbox: false, profile: 'work' })).toBeUndefined();
    expect(flagsToReach({ sandbox: true, profile: 'sandbox' }, { sandbox: true, profile: 'default' })).toBeUndefined();
    expect(flagsToReach({ sandbox: true, profile: 'sandbox' }, { sandbox: false, profile: 'default' })).toBe(' --sandbox');
    expect(flagsToReach({ sandbox: false, profile: 'default' }, { sandbox: true, profile: 'default' })).toBe('');
    expect(flagsToReach({ sandbox: false, profile: 'work' }, { sandbox: true, profile: 'default' })).toBe(' --profile work');
    expect(flagsToReach({ sandbox: false, profile: 'my work' }, { sandbox: false, profile: 'default' })).toBe(" --profile 'my work'");
  });

  it('names --profile default too: the run may take its profile from PRAVO_PROFILE', () => {
    expect(flagsToReach({ sandbox: false, profile: 'default' }, { sandbox: false, profile: 'work' })).toBe(' --profile default');
  });
});
