import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSignOutRegistry, signOutSettledAt, tokenRevoked } from './sign-outs';

describe('global sign-out revocation', () => {
  const signedOutAt = Date.UTC(2026, 0, 1, 12, 0, 30, 400); // 12:00:30.400
  const second = Math.floor(signedOutAt / 1000);

  it('revokes tokens issued before the sign-out and in its second, not those of a later second', () => {
    expect(tokenRevoked(second - 60, signedOutAt)).toBe(true);
    expect(tokenRevoked(second, signedOutAt)).toBe(true);
    expect(tokenRevoked(second + 1, signedOutAt)).toBe(false);
  });

  it('revokes nothing of a user who never signed out everywhere', () => {
    expect(tokenRevoked(0, undefined)).toBe(false);
  });

  it('settles at the start of the next second, so a sign-in after the answer is never revoked', () => {
    const settled = signOutSettledAt(signedOutAt);
    expect(settled).toBe((second + 1) * 1000);
    expect(tokenRevoked(Math.floor(settled / 1000), signedOutAt)).toBe(false);
    expect(signOutSettledAt((second + 1) * 1000)).toBe((second + 2) * 1000);
  });

  describe('the registry', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'sign-outs-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('keeps each user’s latest sign-out in a JSON file that a restart reads back', async () => {
      const file = path.join(dir, 'compat', 'sign-outs.json');
      const registry = await createSignOutRegistry(file);
      expect(registry.signedOutAt('ada')).toBeUndefined();
      await registry.record('ada', 2000);
      await registry.record('ada', 1000); // an older time never moves it back
      await registry.record('bob', 3000);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ ada: 2000, bob: 3000 });

      const restarted = await createSignOutRegistry(file);
      expect(restarted.signedOutAt('ada')).toBe(2000);
      expect(restarted.signedOutAt('bob')).toBe(3000);
    });

    it('records concurrent sign-outs without losing one', async () => {
      const file = path.join(dir, 'sign-outs.json');
      const registry = await createSignOutRegistry(file);
      await Promise.all(['a', 'b', 'c', 'd'].map((user, i) => registry.record(user, i + 1)));
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ a: 1, b: 2, c: 3, d: 4 });
    });
  });
});
