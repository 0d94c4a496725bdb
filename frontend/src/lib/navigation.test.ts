import { adminEquivalent, isAtOrUnder, loginPath, loginRedirect, safeDestination, sectionOf } from './navigation';

describe('safeDestination', () => {
  it.each([
    ['/admin/parameters', '/admin/parameters'],
    ['/dashboard/devices/42?tab=data#chart', '/dashboard/devices/42?tab=data#chart'],
    ['/', '/'],
  ])('keeps the same-origin path %s', (raw, expected) => {
    expect(safeDestination(raw)).toBe(expected);
  });

  it.each([
    [null],
    [undefined],
    [''],
    ['dashboard'],
    ['//evil.example/path'],
    ['/\\evil.example'],
    ['/\t/evil.example'],
    ['/\n/evil.example'],
    ['https://evil.example/'],
    ['javascript:alert(1)'],
    [' /dashboard'],
    ['/login'],
    ['/login?destination=%2Fadmin'],
  ])('falls back to /dashboard for %j', (raw) => {
    expect(safeDestination(raw)).toBe('/dashboard');
  });

  it('round-trips what loginPath encodes', () => {
    const to = loginPath({ pathname: '/admin/parameters', search: '?a=1&b=2', hash: '#x' }, 'session-expired');
    const query = new URLSearchParams(to.slice(to.indexOf('?')));
    expect(query.get('reason')).toBe('session-expired');
    expect(safeDestination(query.get('destination'))).toBe('/admin/parameters?a=1&b=2#x');
  });
});

describe('isAtOrUnder', () => {
  it('holds for the path itself and the pages under it, not for a sibling that shares its start', () => {
    expect(isAtOrUnder('/dashboard/api', '/dashboard/api')).toBe(true);
    expect(isAtOrUnder('/dashboard/api/keys', '/dashboard/api')).toBe(true);
    expect(isAtOrUnder('/dashboard/apis', '/dashboard/api')).toBe(false);
    expect(isAtOrUnder('/dashboard', '/dashboard/api')).toBe(false);
  });
});

describe('loginPath', () => {
  it('encodes path, query and hash into one destination', () => {
    expect(loginPath({ pathname: '/admin', search: '?x=1', hash: '#h' })).toBe(
      '/login?destination=%2Fadmin%3Fx%3D1%23h',
    );
  });

  it('adds the reason', () => {
    expect(loginPath({ pathname: '/dashboard' }, 'session-expired')).toBe(
      '/login?destination=%2Fdashboard&reason=session-expired',
    );
  });
});

describe('sectionOf', () => {
  it.each([
    ['/admin', 'admin'],
    ['/admin/parameters', 'admin'],
    ['/administrator', 'dashboard'],
    ['/dashboard', 'dashboard'],
    ['/', 'dashboard'],
  ])('%s is in the %s section', (path, section) => {
    expect(sectionOf(path)).toBe(section);
  });
});

describe('adminEquivalent', () => {
  it.each([
    ['/dashboard', '/admin'],
    ['/dashboard/people/7', '/admin/people/7'],
    ['/dashboard/devices/[id]', undefined],
    ['/admin/parameters', undefined],
    ['/login', undefined],
  ])('%s → %s', (path, expected) => {
    expect(adminEquivalent(path)).toBe(expected);
  });
});

describe('loginRedirect', () => {
  const here = { pathname: '/admin/parameters', search: '?q=1', hash: '' };

  it('sends a guest to the login page that brings them back', () => {
    expect(loginRedirect(here, undefined)).toBe('/login?destination=%2Fadmin%2Fparameters%3Fq%3D1');
  });

  it('names the reason when the session expired or ended in another tab', () => {
    expect(loginRedirect(here, 'session-expired')).toBe(
      '/login?destination=%2Fadmin%2Fparameters%3Fq%3D1&reason=session-expired',
    );
    expect(loginRedirect(here, 'signed-out-elsewhere')).toMatch(/&reason=signed-out$/);
  });

  it('sends someone who signed out here to the plain login page', () => {
    expect(loginRedirect(here, 'signed-out')).toBe('/login');
  });
});
