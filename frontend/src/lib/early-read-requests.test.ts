import { BAR_PAGE_SIZE, earlyReadsOf } from './early-read-requests';

describe('the reads a signed-in page is drawn with (early reads, decision 113)', () => {
  const shell = [
    {
      area: 'notifications',
      route: 'listUserNotifications',
      request: { params: { id: 'u-1', x: BAR_PAGE_SIZE }, query: { state: 'active' } },
    },
    { area: 'users', route: 'getUserRecord', request: { params: { id: 'u-1' } } },
  ];

  it("are the shell's banner bar and record on every page", () => {
    expect(earlyReadsOf('/dashboard', 'u-1')).toEqual(shell);
    expect(earlyReadsOf('/dashboard/devices', 'u-1')).toEqual(shell);
    expect(earlyReadsOf('/dashboard/devices/d-1/edit', 'u-1')).toEqual(shell);
  });

  it('add the device on its page, at /dashboard and /admin, its id decoded as the router hands it over', () => {
    const device = (id: string) => ({ area: 'devices', route: 'get', request: { params: { id } } });
    expect(earlyReadsOf('/dashboard/devices/demo-device-1', 'u-1')).toEqual([...shell, device('demo-device-1')]);
    expect(earlyReadsOf('/admin/devices/a%20b/', 'u-1')).toEqual([...shell, device('a b')]);
    expect(earlyReadsOf('/dashboard/devices/%E0%A4%A', 'u-1')).toEqual([...shell, device('%E0%A4%A')]);
  });
});
