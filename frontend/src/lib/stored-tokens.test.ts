import { FRESH_MARGIN_MS, freshStoredTokens } from './stored-tokens';

const CLIENT = '62lfpiw5myec84o962xjio16x';
const NOW = Date.UTC(2026, 10, 12, 10, 30);
const HOUR = 3_600_000;

const jwt = (payload: Record<string, unknown>) => {
  const [header, body] = [{ alg: 'RS256', kid: 'k1' }, payload].map((part) =>
    Buffer.from(JSON.stringify(part)).toString('base64url'),
  );
  return `${header}.${body}.c2lnbmF0dXJl`;
};

/** A `document.cookie` string as Amplify's store leaves it: js-cookie percent-encodes names and values (`@` as %40). */
const cookies = (entries: Record<string, string>) =>
  Object.entries(entries)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('; ');

const session = ({
  username = 'c8a1f5e0-0f3b-4d5e-9c1a-2b3c4d5e6f70',
  client = CLIENT,
  accessExp = NOW + HOUR,
  idExp = NOW + HOUR,
  clockDrift,
  idToken = true,
}: {
  username?: string;
  client?: string;
  accessExp?: number;
  idExp?: number;
  clockDrift?: number;
  idToken?: boolean;
} = {}) => {
  const key = `CognitoIdentityServiceProvider.${client}`;
  const access = jwt({ sub: 'sub-1', username, 'cognito:groups': ['staff'], exp: accessExp / 1000 });
  const id = jwt({ sub: 'sub-1', email: 'zoë@example.com', exp: idExp / 1000 });
  return {
    access,
    id,
    cookie: cookies({
      'ddp.session-started': String(NOW - HOUR),
      [`${key}.LastAuthUser`]: username,
      [`${key}.${username}.accessToken`]: access,
      ...(idToken ? { [`${key}.${username}.idToken`]: id } : {}),
      [`${key}.${username}.refreshToken`]: 'opaque.refresh',
      ...(clockDrift === undefined ? {} : { [`${key}.${username}.clockDrift`]: String(clockDrift) }),
    }),
  };
};

describe('freshStoredTokens: the tokens Amplify stored, read without it while they are fresh', () => {
  it('answers both tokens, their payloads decoded (UTF-8 included) and their text as stored', () => {
    const { access, id, cookie } = session();
    const tokens = freshStoredTokens(cookie, CLIENT, NOW);
    expect(tokens?.accessToken.payload).toMatchObject({ sub: 'sub-1', 'cognito:groups': ['staff'] });
    expect(tokens?.accessToken.toString()).toBe(access);
    expect(tokens?.idToken?.payload.email).toBe('zoë@example.com');
    expect(tokens?.idToken?.toString()).toBe(id);
  });

  it('decodes the same cookies once, and cookies with new tokens anew', () => {
    const first = session();
    const a = freshStoredTokens(first.cookie, CLIENT, NOW);
    const b = freshStoredTokens(first.cookie, CLIENT, NOW + 1_000);
    expect(b?.accessToken).toBe(a?.accessToken);
    // A refresh stores new tokens: they are read, not the last ones.
    const renewed = session({ accessExp: NOW + 2 * HOUR });
    const c = freshStoredTokens(renewed.cookie, CLIENT, NOW + 2_000);
    expect(c?.accessToken.toString()).toBe(renewed.access);
    // The decoded tokens are still judged at each read's time.
    expect(freshStoredTokens(first.cookie, CLIENT, NOW + HOUR)).toBeUndefined();
  });

  it('finds a username js-cookie encoded in the names (an e-mail address: @ and dots)', () => {
    const { access, cookie } = session({ username: 'someone.else@example.com' });
    expect(cookie).toContain('someone.else%40example.com.accessToken');
    expect(freshStoredTokens(cookie, CLIENT, NOW)?.accessToken.toString()).toBe(access);
  });

  it('leaves tokens that expire within the margin, or have, to Amplify, which refreshes them', () => {
    expect(freshStoredTokens(session().cookie, CLIENT, NOW + HOUR - FRESH_MARGIN_MS - 1_000)).toBeDefined();
    expect(freshStoredTokens(session().cookie, CLIENT, NOW + HOUR - FRESH_MARGIN_MS + 1_000)).toBeUndefined();
    expect(freshStoredTokens(session().cookie, CLIENT, NOW + 2 * HOUR)).toBeUndefined();
    // Either token: the ID token's expiry counts as Amplify's check counts it.
    expect(freshStoredTokens(session({ idExp: NOW + 30_000 }).cookie, CLIENT, NOW)).toBeUndefined();
  });

  it("reads expiry on the issuer's clock: Amplify's stored clock drift is applied", () => {
    // This browser's clock is 10 minutes behind the issuer's: the 5 minutes left by this clock are gone by the issuer's.
    const behind = session({ clockDrift: 10 * 60_000, accessExp: NOW + 5 * 60_000 });
    expect(freshStoredTokens(behind.cookie, CLIENT, NOW)).toBeUndefined();
    // Ahead by 10 minutes: 30 seconds left here (inside the margin) are 10.5 minutes by the issuer's clock.
    const ahead = session({ clockDrift: -10 * 60_000, accessExp: NOW + 30_000 });
    expect(freshStoredTokens(ahead.cookie, CLIENT, NOW)).toBeDefined();
    expect(freshStoredTokens(session({ accessExp: NOW + 30_000 }).cookie, CLIENT, NOW)).toBeUndefined();
  });

  it('answers nothing for another app client, without an ID token, or for a token that is not a JWT', () => {
    expect(freshStoredTokens(session({ client: 'another-client' }).cookie, CLIENT, NOW)).toBeUndefined();
    expect(freshStoredTokens(session({ idToken: false }).cookie, CLIENT, NOW)).toBeUndefined();
    expect(freshStoredTokens('', CLIENT, NOW)).toBeUndefined();
    const key = `CognitoIdentityServiceProvider.${CLIENT}`;
    const broken = cookies({
      [`${key}.LastAuthUser`]: 'u1',
      [`${key}.u1.accessToken`]: 'not-a-token',
      [`${key}.u1.idToken`]: session().id,
    });
    expect(freshStoredTokens(broken, CLIENT, NOW)).toBeUndefined();
  });
});
