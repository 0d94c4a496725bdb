import {
  BROWSER_MESSAGES,
  browserRows,
  forgetSignInName,
  friendlyBrowserName,
  rememberSignInName,
  signInNameFor,
} from './remembered-browsers';

const memoryStorage = (): Storage => {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
};

describe('the account page’s signed-in browsers', () => {
  const older = new Date('2026-11-20T10:15:00Z');
  const newer = new Date('2026-11-25T14:40:00Z');

  it('puts this browser first, then the most recently used, with status and where from', () => {
    const rows = browserRows(
      [
        {
          id: 'a',
          name: 'Firefox on Windows',
          attributes: { device_status: 'not_remembered' },
          lastAuthenticatedDate: newer,
        },
        {
          id: 'b',
          attributes: { device_name: 'Chrome on Linux', device_status: 'remembered', last_ip_used: '203.0.113.9' },
          lastAuthenticatedDate: older,
        },
        { id: 'c', attributes: {}, createDate: older },
      ],
      'b',
    );
    expect(rows.map((r) => [r.id, r.name, r.current, r.remembered])).toEqual([
      ['b', 'Chrome on Linux', true, true],
      ['a', 'Firefox on Windows', false, false],
      ['c', BROWSER_MESSAGES.unnamed, false, false],
    ]);
    expect(rows[0]!.lastUsed).toMatch(/^Last used .*2026.* from 203\.0\.113\.9$/);
    expect(rows[1]!.lastUsed).not.toContain(' from ');
  });

  it('names a browser as a person recognises it', () => {
    expect(friendlyBrowserName('Linux x86 Linux Not:A-Brand/8.0.0.0;Chromium/156.0.8078.0;Google Chrome/156.0')).toBe(
      'Chromium on Linux',
    );
    expect(
      friendlyBrowserName('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0'),
    ).toBe('Firefox on Windows');
    expect(
      friendlyBrowserName(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari on iOS');
    expect(friendlyBrowserName('Edg/131.0 Windows')).toBe('Edge on Windows');
    expect(friendlyBrowserName(`${'x'.repeat(80)}/1.0`)).toHaveLength(60);
    expect(friendlyBrowserName('Lab laptop')).toBe('Lab laptop');
  });

  it('remembers which user name an address signs in as, until that browser is forgotten', () => {
    const storage = memoryStorage();
    expect(signInNameFor(' Ada@Example.com ', storage)).toBe('Ada@Example.com');
    rememberSignInName('ada@example.com', 'uuid-1', storage);
    rememberSignInName('bob@example.com', 'uuid-2', storage);
    expect(signInNameFor('ADA@example.com', storage)).toBe('uuid-1');
    forgetSignInName('Ada@example.com', storage);
    expect(signInNameFor('ada@example.com', storage)).toBe('ada@example.com');
    expect(signInNameFor('bob@example.com', storage)).toBe('uuid-2');
  });

  it('reads a damaged entry as none', () => {
    const storage = memoryStorage();
    storage.setItem('ddp.sign-in-names', '{not json');
    expect(signInNameFor('ada@example.com', storage)).toBe('ada@example.com');
  });
});
