import type { Locator, Page } from 'playwright-core';
import { NARROW, pagePerTest, web } from '../support/browser';
import { seedBanner, waitForBanner } from '../support/notifications';
import { freshUser } from '../support/people';
import { apiAs } from '../support/stack';
import { signInPerson } from './people-fixtures';

const testPage = pagePerTest();

/** How long a read's answer is held back at most: well past the moment a page drawn without it would show. */
const HOLD_MS = 3_000;

/**
 * Holds back the first answer to a read (a GET, or a search sent as a POST) whose address matches `url` (a slow
 * read), until the returned function runs.
 */
const holdFirstAnswer = async (page: Page, url: RegExp, method = 'GET'): Promise<() => void> => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    url,
    async (route) => {
      if (route.request().method() !== method) return route.fallback();
      const response = await route.fetch();
      await released;
      await route.fulfill({ response });
    },
    { times: 1 },
  );
  return release;
};

/**
 * What a person does on the page just reached after sign-in: presses `link` as soon as it shows. The held answer
 * comes in during the press (or, should the page not show without it, after HOLD_MS, before the press), and the
 * press is let go once `arrived` shows what it brought. A page that draws first and lets the answer push `link`
 * away between the press and the release loses the click, as a person's is lost (docs/frontend-layout.md).
 */
const pressAsTheAnswerArrives = async (page: Page, link: Locator, release: () => void, arrived: Locator) => {
  const shownWithout = await link.waitFor({ timeout: HOLD_MS }).then(
    () => true,
    () => false,
  );
  if (!shownWithout) release();
  await link.scrollIntoViewIfNeeded();
  const box = await link.boundingBox();
  if (!box) throw new Error('The link has no box to press');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  release();
  await arrived.waitFor();
  await page.mouse.up();
};

describe('end to end: a click is not lost to a page that moves under it', () => {
  it('on the page reached after sign-in, while the person’s banner is on its way: the page is drawn with its banners', async () => {
    const person = await freshUser({ groups: ['Employees'], prefix: 'clicks-banner' });
    const bannerId = await seedBanner(person.id, 'Maintenance tonight');
    const page = testPage();
    const release = await holdFirstAnswer(page, /\/notifications\/notificationsByUserId\//);
    await signInPerson(page, person, '/admin');

    await pressAsTheAnswerArrives(
      page,
      page.getByTestId('admin-cache-link'),
      release,
      page.getByTestId(`banner-${bannerId}`),
    );
    await page.waitForURL(web('/admin/cache'), { timeout: 10_000 });
  });

  it('on the page reached after sign-in, while its own list is on its way: the API page is drawn with its keys', async () => {
    const person = await freshUser({ groups: ['Authenticated_users'], prefix: 'clicks-keys' });
    const { keyId } = await apiAs('sensor-data', person.token).createApiKey({ body: { name: 'nightly export' } });
    const page = testPage();
    const release = await holdFirstAnswer(page, /\/sensor-data\/api-keys(\?|$)/);
    await signInPerson(page, person, '/dashboard/api');

    await pressAsTheAnswerArrives(
      page,
      page.getByTestId('api-reference-link'),
      release,
      page.getByTestId(`api-key-row-${keyId}`),
    );
    await page.waitForURL(web('/dashboard/api/reference'), { timeout: 10_000 });
  });

  it('on a person’s admin page, while their billing is on its way: the deletion controls at its foot stay put', async () => {
    const staff = await freshUser({ groups: ['Employees'], prefix: 'clicks-staff' });
    const person = await freshUser({ groups: ['Authenticated_users'], prefix: 'clicks-person' });
    const page = testPage();
    await signInPerson(page, staff, '/admin');
    await page.getByTestId('admin-cache-link').waitFor();
    // The billing panel sits above the deletion panel; its search for the person's customer is the read held back.
    const release = await holdFirstAnswer(page, /\/customers\/search-by-email$/, 'POST');
    await page.goto(web(`/admin/people/${person.id}`));

    page.once('dialog', (dialog) => void dialog.accept());
    await pressAsTheAnswerArrives(
      page,
      page.getByTestId('person-queue'),
      release,
      page.getByTestId('person-billing-none'),
    );
    await page.locator('[data-testid="person-deletion-state"][data-queued="true"]').waitFor({ timeout: 10_000 });
  });

  it('while a banner that reads itself is read: it stays on the bar until the person leaves the page', async () => {
    const person = await freshUser({ groups: ['Employees'], prefix: 'clicks-read' });
    const bannerId = await seedBanner(person.id, 'Read by being seen');
    const page = testPage();
    await signInPerson(page, person, '/admin');
    const banner = page.getByTestId(`banner-${bannerId}`);
    await banner.waitFor();
    const link = page.getByTestId('admin-cache-link');
    const before = await link.boundingBox();

    // The bar marks it read after 10 s on screen; the bell, which reads the same answer, then counts none.
    await waitForBanner(person.id, (b) => b.notificationId === bannerId && b.readAt !== undefined);
    await page.locator('[data-testid="nav-notifications"][aria-label="Notifications"]').waitFor({ state: 'attached' });
    expect(await banner.isVisible()).toBe(true);
    expect(await link.boundingBox()).toEqual(before);

    await link.click();
    await page.waitForURL(web('/admin/cache'));
    await banner.waitFor({ state: 'detached' });
  });

  it('below the open phone menu: the menu folds once the tap has done its work, not at the press', async () => {
    const person = await freshUser({ groups: ['Employees'], prefix: 'clicks-menu' });
    const page = testPage();
    await page.setViewportSize(NARROW);
    await signInPerson(page, person, '/admin');
    // The first card's link, on screen under the open menu without scrolling (a scrolled page keeps its place when
    // what is above shrinks: Chromium's scroll anchoring).
    const link = page.getByTestId('admin-devices-link');
    await link.waitFor();
    await page.getByTestId('menu-toggle').click();
    await page.locator('#header-menu[data-open]').waitFor();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    await link.click();
    await page.waitForURL(web('/admin/devices'), { timeout: 10_000 });
    expect(await page.getByTestId('menu-toggle').getAttribute('aria-expanded')).toBe('false');
  });
});
