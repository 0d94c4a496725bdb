import {
  clearSessionCookieString,
  DAY_MS,
  parseSessionStart,
  readCookie,
  SESSION_MAX_AGE_MS,
  sessionCookieString,
  sessionVerdict,
} from './session-rules';

const now = Date.UTC(2030, 0, 10, 12);

describe('sessionVerdict', () => {
  it('is none for a guest, whatever the cookie says', () => {
    expect(sessionVerdict({ hasTokens: false, startedAt: undefined, now })).toBe('none');
    expect(sessionVerdict({ hasTokens: false, startedAt: now - 8 * DAY_MS, now })).toBe('none');
  });

  it('ends a session whose stored tokens could not be refreshed (Amplify cleared them)', () => {
    expect(sessionVerdict({ hasTokens: false, startedAt: now - DAY_MS, now, refreshFailed: true })).toBe('expired');
    // Also when the session cookie ran out first: the user still had a session and learns that it ended.
    expect(sessionVerdict({ hasTokens: false, startedAt: undefined, now, refreshFailed: true })).toBe('expired');
    // Tokens that did come back (a failed refresh elsewhere, then a good one) are judged by the session cookie.
    expect(sessionVerdict({ hasTokens: true, startedAt: now - DAY_MS, now, refreshFailed: true })).toBe('active');
  });

  it('keeps a session younger than 7 days', () => {
    expect(sessionVerdict({ hasTokens: true, startedAt: now, now })).toBe('active');
    expect(sessionVerdict({ hasTokens: true, startedAt: now - SESSION_MAX_AGE_MS + 1, now })).toBe('active');
  });

  it('ends a session of 7 days or more', () => {
    expect(SESSION_MAX_AGE_MS).toBe(604_800_000);
    expect(sessionVerdict({ hasTokens: true, startedAt: now - SESSION_MAX_AGE_MS, now })).toBe('expired');
    expect(sessionVerdict({ hasTokens: true, startedAt: now - 30 * DAY_MS, now })).toBe('expired');
  });

  it('ends a session whose cookie is gone or claims to start in the future', () => {
    expect(sessionVerdict({ hasTokens: true, startedAt: undefined, now })).toBe('expired');
    expect(sessionVerdict({ hasTokens: true, startedAt: now + DAY_MS, now })).toBe('expired');
    expect(sessionVerdict({ hasTokens: true, startedAt: Number.NaN, now })).toBe('expired');
  });
});

describe('readCookie and parseSessionStart', () => {
  const cookies = 'a=1; ddp.session-started=1700000000000; CognitoIdentityServiceProvider.x.LastAuthUser=u%40x';

  it('finds one cookie by its exact name and decodes it', () => {
    expect(readCookie(cookies, 'ddp.session-started')).toBe('1700000000000');
    expect(readCookie(cookies, 'CognitoIdentityServiceProvider.x.LastAuthUser')).toBe('u@x');
    expect(readCookie(cookies, 'session-started')).toBeUndefined();
    expect(readCookie('', 'a')).toBeUndefined();
  });

  it('accepts only a number of milliseconds', () => {
    expect(parseSessionStart('1700000000000')).toBe(1_700_000_000_000);
    expect(parseSessionStart('')).toBeUndefined();
    expect(parseSessionStart('1e12')).toBeUndefined();
    expect(parseSessionStart('-5')).toBeUndefined();
    expect(parseSessionStart(undefined)).toBeUndefined();
  });
});

describe('session cookie strings', () => {
  it('sets path /, 7 days, same-site and secure from the policy', () => {
    const cloud = sessionCookieString(now, { secure: true, sameSite: 'strict' });
    expect(cloud).toBe(
      `ddp.session-started=${now}; path=/; expires=${new Date(now + 7 * DAY_MS).toUTCString()}; samesite=strict; secure`,
    );
    const local = sessionCookieString(now, { secure: false, sameSite: 'lax' });
    expect(local).toContain('samesite=lax');
    expect(local).not.toContain('secure');
  });

  it('clears the cookie with an expiry in the past', () => {
    expect(clearSessionCookieString({ secure: false, sameSite: 'lax' })).toBe(
      'ddp.session-started=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT; samesite=lax',
    );
  });
});
