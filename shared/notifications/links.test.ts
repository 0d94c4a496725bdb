import { adminEquivalent, linkFor, linksForViewer } from './links';

describe('notification links (spec §2)', () => {
  it('sends people to the dashboard pages of people, devices and organizations', () => {
    expect(linkFor({ kind: 'person', id: 'u1' }, ['Authenticated_users'])).toBe('/dashboard/people/u1');
    expect(linkFor({ kind: 'device', id: 'd1' }, [])).toBe('/dashboard/devices/d1');
    expect(linkFor({ kind: 'organization', id: 'o1' }, ['Distributors'])).toBe('/dashboard/organizations/o1');
  });

  it('gives administrators /admin/people/{id}, and employees the /admin equivalent too', () => {
    expect(linkFor({ kind: 'person', id: 'u1' }, ['Administrators'])).toBe('/admin/people/u1');
    expect(linkFor({ kind: 'device', id: 'd1' }, ['Employees'])).toBe('/admin/devices/d1');
    expect(linkFor('/dashboard/organizations/o1', ['Employees', 'Authenticated_users'])).toBe(
      '/admin/organizations/o1',
    );
  });

  it('keeps a dashboard link whose last segment is a bracketed dynamic parameter', () => {
    expect(adminEquivalent('/dashboard/devices/[id]')).toBeUndefined();
    expect(linkFor('/dashboard/devices/[deviceId]', ['Administrators'])).toBe('/dashboard/devices/[deviceId]');
    expect(adminEquivalent('/dashboard/devices/[id]/settings')).toBe('/admin/devices/[id]/settings');
  });

  it('has no admin equivalent outside the dashboard', () => {
    expect(adminEquivalent('/login')).toBeUndefined();
    expect(adminEquivalent('/dashboardx')).toBeUndefined();
    expect(adminEquivalent('/dashboard')).toBe('/admin');
    expect(linkFor('/invites/i1', ['Administrators'])).toBe('/invites/i1');
  });

  it('encodes an id that is not path-safe', () => {
    expect(linkFor({ kind: 'person', id: 'a b/c' }, [])).toBe('/dashboard/people/a%20b%2Fc');
  });

  it("rewrites a body's dashboard links for staff only, keeping query and hash", () => {
    const body = '<p><a href="/dashboard/devices/d1?range=24h#chart">device</a> <a href="https://x.example/">x</a></p>';
    expect(linksForViewer(body, ['Authenticated_users'])).toBe(body);
    expect(linksForViewer(body, ['Employees'])).toBe(
      '<p><a href="/admin/devices/d1?range=24h#chart">device</a> <a href="https://x.example/">x</a></p>',
    );
  });
});
