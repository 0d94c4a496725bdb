import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../infra/local/demo-data';
import {
  keepScreenshot,
  NARROW,
  newPage,
  openNav,
  pagePerTest,
  WIDE,
  waitForHeaderUser,
  web,
} from '../support/browser';
import { mailText, waitForMail } from '../support/mail';
import { type FreshUser, freshUser } from '../support/people';
import { apiAs, tokenOf, uniqueId } from '../support/stack';
import { freshPerson, signInPerson, uniqueName } from './people-fixtures';

const testPage = pagePerTest();

/** A banner reaches the bar by the 15 s poll after the worker wrote it: this is the most a person waits. */
const BANNER_WAIT_MS = 30_000;

/** A journey waits on the worker and the bar's poll, some of them twice. */
const TEST_MS = 150_000;

const ADMIN = { email: 'admin@example.com', password: DEMO_PASSWORD };

/** A second browser context (another person's browser), sized as the test's own. */
const otherBrowser = (page: Page) => newPage(page.context().browser()!);

/** The banner bar, as a screen reader finds it: the region named "Notifications". */
const bar = (page: Page): Locator => page.getByRole('region', { name: 'Notifications' });

/** Marks the document: the mark survives only while no reload or full navigation happens. */
const markDocument = (page: Page) => page.evaluate(() => Object.assign(window, { sameDocument: true }));
const sameDocument = (page: Page) => page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument === true);

/** A notification staff send through the API (the composer is tested on its own below). */
const sendAs = async (
  recipient: FreshUser,
  fields: { title: string; methods?: ('email' | 'banner')[]; requireInteraction?: boolean },
) => {
  const notifications = apiAs('notifications', await tokenOf('admin@example.com'));
  return notifications.queueNotification({
    body: {
      title: fields.title,
      body: `<p>About <strong>${fields.title}</strong>.</p>`,
      topic: 'announcements',
      icon: 'info',
      methods: fields.methods ?? ['banner'],
      requireInteraction: fields.requireInteraction ?? true,
      audience: [`user:userId=${recipient.id}`],
    },
  });
};

/** Asks `check` until it answers true; fails with `what` when it has not by `timeoutMs`. */
const eventually = async (what: string, check: () => Promise<boolean>, timeoutMs = BANNER_WAIT_MS) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
};

/** The person's banner list as the bar reads it again, e.g. after a reload: waits for the bar's next answer. */
const barAnswer = (page: Page) =>
  page.waitForResponse((r) => r.url().includes('/notificationsByUserId/') && r.request().method() === 'GET');

describe('end to end: notifications', () => {
  it(
    'an administrator grants a person the Employees role and another administrator, on a dashboard page, sees the banner appear without reloading and gets the e-mail',
    async () => {
      const person = await freshPerson();
      const watcher = await freshUser({
        groups: ['Administrators'],
        givenName: uniqueName('Wendy'),
        familyName: uniqueName('Watcher'),
      });
      const granter = testPage();
      const watching = await otherBrowser(granter);
      try {
        await signInPerson(watching, watcher, '/dashboard');
        await waitForHeaderUser(watching, watcher.email);
        await bar(watching).waitFor({ state: 'attached' });
        await markDocument(watching);

        await signInPerson(granter, ADMIN, `/admin/people/${person.id}`);
        await granter.getByTestId('person-email').getByText(person.email).waitFor();
        await granter.getByTestId('person-group-add').selectOption('Employees');
        await granter.getByTestId('person-group-add-submit').click();
        await granter.getByTestId('person-group-Employees').waitFor();

        // What the other administrator reads on the bar, without touching the page. The trigger names the person
        // by their display name, else their e-mail address.
        const named = new RegExp(`${person.familyName}|${person.email.replace(/[.+-]/g, '\\$&')}`);
        const banner = bar(watching)
          .getByRole('listitem')
          .filter({ hasText: 'was granted the Employees role' })
          .filter({ hasText: named });
        await banner.waitFor({ timeout: BANNER_WAIT_MS });
        const notificationId = (await banner.getAttribute('data-testid'))!.replace(/^banner-/, '');
        expect(await banner.textContent()).toContain(`was granted the Employees role`);
        await banner.getByRole('img', { name: 'Information' }).waitFor();
        expect(await sameDocument(watching)).toBe(true);
        // The bell counts it, in words for a screen reader ("Notifications, 1 unread").
        expect(await watching.getByTestId('nav-notifications').getAttribute('aria-label')).toMatch(
          /^Notifications, \d+\+? unread$/,
        );

        // A role change stays until dismissed (requireInteraction): still there past the bar's 10 s.
        await watching.waitForTimeout(11_000);
        expect(await banner.isVisible()).toBe(true);
        await banner.getByRole('button', { name: /^Dismiss/ }).click();
        await banner.waitFor({ state: 'detached' });

        const mail = await waitForMail(
          watcher.email,
          (m) => m.subject.includes('was granted the Employees role') && named.test(m.subject),
          BANNER_WAIT_MS,
        );
        // It links to the notification; a role change is a locked topic, so it has no unsubscribe link.
        expect(mailText(mail)).toContain(`/dashboard/notifications/${notificationId}`);
        expect(mailText(mail)).not.toContain('/unsubscribe?token=');
      } finally {
        await watching.context().close();
      }
    },
    TEST_MS,
  );

  it(
    'staff compose a banner to one person by id; the person sees it, follows its in-app link, dismisses it, and it stays gone after a reload',
    async () => {
      const recipient = await freshPerson();
      const title = uniqueId('Maintenance');
      const staff = testPage();
      const reader = await otherBrowser(staff);
      try {
        await signInPerson(reader, recipient, '/dashboard');
        await waitForHeaderUser(reader, recipient.email);
        await markDocument(reader);

        await signInPerson(staff, ADMIN, '/admin/notifications');
        await staff.getByTestId('composer-open').click();
        await staff.getByTestId('composer-title').fill(title);
        await staff
          .getByTestId('composer-body')
          .fill('<p>We update the platform tonight. See <a href="/dashboard/api">your API page</a>.</p>');
        // The live preview shows the body as it will read.
        await staff
          .frameLocator('[data-testid="composer-preview"]')
          .getByText('We update the platform tonight')
          .waitFor();
        await staff.getByTestId('composer-method-email').uncheck();
        await staff.getByTestId('composer-require-interaction').check();

        // The picker refuses no person, then builds the selector from the person picked by e-mail.
        await staff.getByTestId('audience-add').click();
        expect(await staff.getByTestId('audience-refused').textContent()).toBe("Enter the person's user id");
        await staff.getByTestId('audience-user-id').fill(recipient.email);
        await staff.getByTestId('audience-user-id-option').filter({ hasText: recipient.email }).click();
        await staff.getByTestId('audience-add').click();
        // The chip names the person (staff see the e-mail beside the name), never their id.
        const chip = staff.getByTestId('audience-chip');
        await chip.getByText(recipient.email).waitFor();
        expect(await chip.textContent()).not.toContain(recipient.id);
        await staff.getByTestId('audience-preview').getByText('Reaches 1 person now.').waitFor();

        await staff.getByTestId('composer-send').click();
        await staff.waitForURL(/\/admin\/notifications\/[^/]+$/);
        await staff.getByTestId('admin-notification-title').getByText(title).waitFor();
        await staff
          .locator('[data-testid="admin-notification-status"][data-status="sent"]')
          .waitFor({ timeout: BANNER_WAIT_MS });
        expect(await staff.getByTestId('count-recipients').textContent()).toBe('1');
        expect(await staff.getByTestId('count-banners').textContent()).toBe('1');

        const banner = bar(reader).getByRole('listitem').filter({ hasText: title });
        await banner.waitFor({ timeout: BANNER_WAIT_MS });
        expect(await banner.textContent()).toContain('We update the platform tonight');
        expect(await sameDocument(reader)).toBe(true);

        // The body's link to a page of the app navigates inside it.
        await banner.getByRole('link', { name: 'your API page' }).click();
        await reader.waitForURL(web('/dashboard/api'));
        await reader.getByTestId('api-page').waitFor();
        expect(await sameDocument(reader)).toBe(true);

        await banner.getByRole('button', { name: `Dismiss "${title}"` }).click();
        await banner.waitFor({ state: 'detached' });

        const answered = barAnswer(reader);
        await reader.reload();
        await answered;
        await waitForHeaderUser(reader, recipient.email);
        await bar(reader).waitFor({ state: 'attached' });
        expect(await bar(reader).getByText(title).count()).toBe(0);

        // On the notifications page it is still listed, read state and all, and marked dismissed.
        await reader.goto(web('/dashboard/notifications'));
        await reader.getByTestId('notifications-list').getByText(title).waitFor();
      } finally {
        await reader.context().close();
      }
    },
    TEST_MS,
  );

  it(
    'the notifications page marks a notification read and unread, filters the unread ones, and opening one reads it',
    async () => {
      const person = await freshPerson();
      const first = await sendAs(person, { title: uniqueId('First') });
      const second = await sendAs(person, { title: uniqueId('Second') });
      const page = testPage();
      await signInPerson(page, person, '/dashboard/notifications');
      await page.getByTestId('notifications-page').waitFor();

      const item = (id: string) => page.getByTestId(`notification-item-${id}`);
      // Both arrive once the worker has them; the page reads the list again every 15 s at most (the bar's poll
      // invalidates nothing here), so reload until both show.
      await eventually('both notifications listed', async () => {
        if ((await item(first.id).count()) && (await item(second.id).count())) return true;
        await page.reload();
        await page.getByTestId('notifications-list').or(page.getByTestId('notifications-empty')).waitFor();
        await page.waitForTimeout(1_000);
        return false;
      });

      // Unread is said in words and weight, not colour alone.
      await item(first.id).getByText('Unread', { exact: true }).waitFor();
      const toggle = page.getByTestId(`notification-toggle-read-${first.id}`);
      expect(await toggle.textContent()).toBe('Mark read');
      await toggle.click();
      await item(first.id).getByText('Unread', { exact: true }).waitFor({ state: 'detached' });
      expect(await toggle.textContent()).toBe('Mark unread');

      await page.getByTestId('notifications-filter-unread').click();
      expect(await page.getByTestId('notifications-filter-unread').getAttribute('aria-pressed')).toBe('true');
      await item(second.id).waitFor();
      expect(await item(first.id).count()).toBe(0);

      await page.getByTestId('notifications-filter-all').click();
      await page.getByTestId(`notification-toggle-read-${first.id}`).click();
      await item(first.id).getByText('Unread', { exact: true }).waitFor();

      // Opening one (where its e-mail links to) marks it read.
      await item(second.id).getByRole('link', { name: second.title }).click();
      await page.waitForURL(web(`/dashboard/notifications/${second.id}`));
      await page.getByTestId('notification-title').getByText(second.title).waitFor();
      await page.getByTestId('notification-read').locator('time').waitFor();
      await page.getByRole('link', { name: 'All notifications' }).click();
      await item(second.id).waitFor();
      await item(second.id).getByText('Unread', { exact: true }).waitFor({ state: 'detached' });
    },
    TEST_MS,
  );

  it(
    "a person's e-mail unsubscribe link turns the topic off after they press the button (not on opening), as their preferences show; a bad link says so",
    async () => {
      const person = await freshPerson();
      const title = uniqueId('Newsletter');
      await sendAs(person, { title, methods: ['email'] });
      const mail = await waitForMail(person.email, (m) => m.subject.includes(title), BANNER_WAIT_MS);
      const href = /https?:\/\/[^"'\s<>]+\/unsubscribe\?[^"'\s<>]+/.exec(mail.body.html ?? mail.body.text ?? '')?.[0];
      expect(href).toBeDefined();
      const link = new URL(href!.replace(/&amp;/g, '&'));

      // A guest (the link is opened from the mail, maybe on another device).
      const page = testPage();
      await page.goto(web(`/unsubscribe${link.search}`));
      await page.getByTestId('unsubscribe-topic').getByText('Announcements').waitFor();
      // Opening the page changed nothing.
      const prefs = apiAs('notifications', person.token);
      expect((await prefs.getPreferences({})).topics.find((t) => t.topic === 'announcements')?.email).toBe(true);

      await page.getByRole('button', { name: 'Unsubscribe' }).click();
      expect(await page.getByTestId('unsubscribe-done').textContent()).toContain(
        'You will no longer get e-mail about Announcements',
      );

      // Signed in, the preferences show the topic off, and a locked one on and not changeable.
      await signInPerson(page, person, '/dashboard/notifications');
      const announcements = page.getByTestId('preference-announcements');
      await announcements.waitFor();
      await eventually('the topic shown off', async () => !(await announcements.isChecked()), 10_000);
      expect(await page.getByTestId('preference-roles').isChecked()).toBe(true);
      expect(await page.getByTestId('preference-roles').isDisabled()).toBe(true);
      // Turned back on from the page.
      await announcements.check();
      await page.getByTestId('preferences-submit').click();
      await page.getByTestId('preferences-saved').waitFor();
      expect((await prefs.getPreferences({})).topics.find((t) => t.topic === 'announcements')?.email).toBe(true);

      // A link whose token is not one the platform gave: the API's refusal, in words.
      await page.goto(web('/unsubscribe?token=not-a-real-token-0123456789&topic=devices'));
      await page.getByRole('button', { name: 'Unsubscribe' }).click();
      const refusal = page.getByTestId('unsubscribe-error');
      await refusal.waitFor();
      expect((await refusal.textContent())?.length).toBeGreaterThan(5);
      // A link cut short is told apart before anything is sent.
      await page.goto(web('/unsubscribe?topic=devices'));
      expect(await page.getByTestId('unsubscribe-error').textContent()).toContain('not complete');
    },
    TEST_MS,
  );

  it(
    'the header links to the notifications page at every width',
    async () => {
      const person = await freshPerson();
      const page = testPage();
      await signInPerson(page, person, '/dashboard');
      await waitForHeaderUser(page, person.email);
      await openNav(page);
      await page.getByRole('navigation', { name: 'Main' }).getByTestId('nav-notifications').click();
      await page.waitForURL(web('/dashboard/notifications'));
      await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    },
    TEST_MS,
  );

  it(
    'the bar, the notifications page, a record and the composer fit 1280 and 375 px in light and dark, tables reachable by keyboard',
    async () => {
      const artifacts = path.resolve(import.meta.dirname, 'artifacts');
      mkdirSync(artifacts, { recursive: true });
      const person = await freshUser({
        groups: ['Administrators'],
        givenName: uniqueName('Sam'),
        familyName: uniqueName('Screens'),
      });
      const long = `A long title ${'that goes on '.repeat(4)}${uniqueId('x')}`;
      const sent = await sendAs(person, { title: long });
      await sendAs(person, { title: uniqueId('Second'), requireInteraction: false });
      // Never opened: the count on the header (on the Menu button at 375 px) has something to show.
      await sendAs(person, { title: uniqueId('Third') });
      const browser = testPage().context().browser()!;
      for (const colorScheme of ['light', 'dark'] as const) {
        for (const viewport of [WIDE, NARROW]) {
          const context = await browser.newContext({ viewport, colorScheme });
          const page = await context.newPage();
          try {
            await signInPerson(page, person, '/dashboard');
            await bar(page).getByRole('link', { name: long }).waitFor({ timeout: BANNER_WAIT_MS });
            if (viewport === NARROW) {
              expect(await page.getByTestId('menu-unread').textContent()).toMatch(/^\d+$/);
              expect(await page.getByTestId('menu-toggle').textContent()).toMatch(
                /^Menu\d+, \d+ unread notifications$/,
              );
            }
            const shots: [string, string, () => Promise<unknown>][] = [
              ['bar', '/dashboard', () => bar(page).getByRole('link', { name: long }).waitFor()],
              ['page', '/dashboard/notifications', () => page.getByTestId(`notification-item-${sent.id}`).waitFor()],
              [
                'record',
                `/admin/notifications/${sent.id}`,
                () => page.getByTestId('admin-notification-counts').waitFor(),
              ],
              [
                'composer',
                '/admin/notifications',
                async () => {
                  // The list of what was sent answers (rows, or the API's refusal shown).
                  const listed = page.getByTestId(`admin-notification-row-${sent.id}`);
                  await listed.or(page.getByTestId('admin-notifications-error')).first().waitFor({ timeout: 20_000 });
                  expect(await page.getByTestId('admin-notifications-error').count()).toBe(0);
                  await page.getByTestId('composer-open').click();
                  await page.getByTestId('composer-body').fill('<p>Hello <a href="/dashboard">there</a>.</p>');
                  await page.getByTestId('audience-kind').selectOption('role');
                  await page.getByTestId('audience-add').click();
                  await page
                    .getByTestId('audience-preview')
                    .getByText(/Reaches \d+ (person|people) now/)
                    .waitFor();
                },
              ],
            ];
            for (const [name, where, ready] of shots) {
              if (new URL(page.url()).pathname !== where) await page.goto(web(where));
              await ready();
              await keepScreenshot(
                page,
                path.join(artifacts, `notifications-${name}-${viewport.width}-${colorScheme}.png`),
                { fullPage: true },
              );
              const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
              expect({ where, viewport: viewport.width, fits }).toEqual({
                where,
                viewport: viewport.width,
                fits: true,
              });
              const unreachable = await page
                .locator('.table-wrap')
                .evaluateAll(
                  (frames) =>
                    frames
                      .filter((frame) => frame.scrollWidth > frame.clientWidth + 1)
                      .filter((frame) => frame.getAttribute('tabindex') !== '0' || !frame.getAttribute('aria-label'))
                      .length,
                );
              expect({ where, unreachable }).toEqual({ where, unreachable: 0 });
            }
          } finally {
            await context.close();
          }
        }
      }
    },
    TEST_MS,
  );
});
