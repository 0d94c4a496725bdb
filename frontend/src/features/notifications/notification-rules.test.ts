import type { Banner } from '../../../../shared/contracts/notifications';
import {
  audienceChip,
  audienceText,
  BAR_LIMIT,
  barBanners,
  bellLabel,
  inAppPath,
  inFlight,
  peopleCount,
  readsItself,
  staysOnBar,
  unreadBadgeText,
} from './notification-rules';

const banner = (id: string, created: number, extra: Partial<Banner> = {}): Banner => ({
  notificationId: id,
  icon: 'info',
  requireInteraction: false,
  topic: 'announcements',
  title: `Title ${id}`,
  body: '<p>Body</p>',
  initiator: { id: 'staff-1', type: 'user-id' },
  created,
  ...extra,
});

const click = { button: 0, metaKey: false, ctrlKey: false, shiftKey: false, altKey: false };

describe('the unread badge', () => {
  it('shows nothing at 0, the number up to 99 and "99+" beyond', () => {
    expect(unreadBadgeText(0)).toBeUndefined();
    expect(unreadBadgeText(1)).toBe('1');
    expect(unreadBadgeText(99)).toBe('99');
    expect(unreadBadgeText(100)).toBe('99+');
  });

  it("says the count in the link's name, so it is not only a coloured dot", () => {
    expect(bellLabel(0)).toBe('Notifications');
    expect(bellLabel(3)).toBe('Notifications, 3 unread');
    expect(bellLabel(250)).toBe('Notifications, 99+ unread');
  });
});

describe('when a banner is on the bar', () => {
  it('keeps an unread banner, and a read one only while it requires interaction', () => {
    expect(staysOnBar(banner('a', 1))).toBe(true);
    expect(staysOnBar(banner('a', 1, { readAt: 2 }))).toBe(false);
    expect(staysOnBar(banner('a', 1, { readAt: 2, requireInteraction: true }))).toBe(true);
  });

  it('drops a dismissed banner whatever else it is', () => {
    expect(staysOnBar(banner('a', 1, { dismissedAt: 3 }))).toBe(false);
    expect(staysOnBar(banner('a', 1, { dismissedAt: 3, requireInteraction: true }))).toBe(false);
  });

  it('marks only unread banners without requireInteraction read on its own', () => {
    expect(readsItself(banner('a', 1))).toBe(true);
    expect(readsItself(banner('a', 1, { requireInteraction: true }))).toBe(false);
    expect(readsItself(banner('a', 1, { readAt: 2 }))).toBe(false);
  });

  it('shows the newest three and counts the rest', () => {
    const banners = [
      banner('old', 1),
      banner('new', 5),
      banner('read', 6, { readAt: 7 }),
      banner('mid', 3),
      banner('sticky', 2, { readAt: 4, requireInteraction: true }),
      banner('gone', 9, { dismissedAt: 10 }),
    ];
    const { shown, more } = barBanners(banners);
    expect(shown.map((b) => b.notificationId)).toEqual(['new', 'mid', 'sticky']);
    expect(shown).toHaveLength(BAR_LIMIT);
    expect(more).toBe(1);
    expect(barBanners([banner('one', 1)])).toEqual({ shown: [banner('one', 1)], more: 0 });
  });

  it('keeps a banner read while its page is on screen, and lets a dismissed one go at once', () => {
    const banners = [banner('read', 3, { readAt: 4 }), banner('dismissed', 2, { readAt: 4, dismissedAt: 5 })];
    expect(barBanners(banners).shown).toEqual([]);
    const kept = barBanners(banners, new Set(['read', 'dismissed']));
    expect(kept.shown.map((b) => b.notificationId)).toEqual(['read']);
  });
});

describe('the audience picker', () => {
  it('builds the three selector kinds of the spec', () => {
    expect(audienceChip({ kind: 'user', userId: ' u-1 ' }, [])).toEqual({ ok: true, selector: 'user:userId=u-1' });
    expect(audienceChip({ kind: 'relation', relationType: 'organization-manager', referrerId: 'o1' }, [])).toEqual({
      ok: true,
      selector: 'relation:relation-type=organization-manager:referrerId=o1',
    });
    expect(audienceChip({ kind: 'role', group: 'Employees' }, [])).toEqual({
      ok: true,
      selector: 'role:roleName=Employees',
    });
  });

  it('says what is missing or wrong, and refuses a chip already in the list', () => {
    expect(audienceChip({ kind: 'user', userId: '  ' }, [])).toEqual({
      ok: false,
      error: "Enter the person's user id",
    });
    expect(audienceChip({ kind: 'relation', relationType: 'device-owner', referrerId: '' }, [])).toMatchObject({
      ok: false,
    });
    expect(audienceChip({ kind: 'user', userId: 'a#b' }, [])).toMatchObject({ ok: false, error: expect.any(String) });
    expect(audienceChip({ kind: 'relation', relationType: 'organization-device', referrerId: 'o1' }, [])).toMatchObject(
      { ok: false, error: expect.stringContaining('person') },
    );
    expect(audienceChip({ kind: 'user', userId: 'u-1' }, ['user:userId=u-1'])).toEqual({
      ok: false,
      error: 'That audience is already in the list',
    });
  });

  it('names each chip in words', () => {
    expect(audienceText('user:userId=u-1')).toBe('Person u-1');
    expect(audienceText('role:roleName=Administrators')).toBe('Everyone in Administrators');
    expect(audienceText('relation:relation-type=device-owner:referrerId=d1')).toBe('device-owner of d1');
    expect(audienceText('nonsense')).toBe('nonsense');
  });

  it('counts people in words', () => {
    expect(peopleCount(1)).toBe('1 person');
    expect(peopleCount(0)).toBe('0 people');
    expect(peopleCount(12)).toBe('12 people');
  });
});

describe('links inside a notification body', () => {
  it('keeps a plain click on an app path inside the app', () => {
    expect(inAppPath('/dashboard/devices/d1', click)).toBe('/dashboard/devices/d1');
  });

  it('leaves other sites, protocol-relative links and new-tab clicks to the browser', () => {
    expect(inAppPath('https://example.com/', click)).toBeUndefined();
    expect(inAppPath('//evil.example/x', click)).toBeUndefined();
    expect(inAppPath('/dashboard', { ...click, ctrlKey: true })).toBeUndefined();
    expect(inAppPath('/dashboard', { ...click, button: 1 })).toBeUndefined();
    expect(inAppPath('/dashboard', click, '_blank')).toBeUndefined();
    expect(inAppPath(null, click)).toBeUndefined();
  });
});

describe('the delivery status', () => {
  it('is read again only while the worker has the notification', () => {
    expect(inFlight('queued')).toBe(true);
    expect(inFlight('sending')).toBe(true);
    expect(inFlight('created')).toBe(false);
    expect(inFlight('sent')).toBe(false);
    expect(inFlight(undefined)).toBe(false);
  });
});
