import type { Page } from 'playwright-core';
import { createReadingsStore } from '../../functions/_shared/sensor-data/readings-store';
import { pagePerTest, web } from '../support/browser';
import { type FreshUser, freshUser } from '../support/people';
import { freshDevice, setTier } from '../support/sensor-data';
import { apiAs, documentClient, stack } from '../support/stack';
import { freshPerson, signInPerson } from './people-fixtures';

/** Issue 36's small things a newcomer meets in the first minute, each as a person sees it. */
const testPage = pagePerTest();
const MINUTE = 60_000;

/** What the device page's Owner fact reads once the name (if any) has arrived. */
const ownerShown = async (page: Page, deviceId: string, expected: string) => {
  await page.goto(web(`/dashboard/devices/${deviceId}`));
  const owner = page.getByTestId('device-owner');
  await owner.getByText(expected, { exact: true }).waitFor();
  return (await owner.textContent())?.trim();
};

describe('end to end: the first minute', () => {
  let owner: FreshUser;
  let deviceId: string;

  beforeAll(async () => {
    owner = await freshPerson();
    const device = await freshDevice({ productLine: 'sd1', ownerToken: owner.token });
    deviceId = device.id;
    // Public, so a guest and a stranger may open its page.
    await apiAs('devices', owner.token).update({ params: { id: deviceId }, body: { dataVisibility: 'public' } });
  });

  describe("a device page says who owns it in the viewer's words", () => {
    it('"You" to its owner', async () => {
      const page = testPage();
      await signInPerson(page, owner, `/dashboard/devices/${deviceId}`);
      await page.waitForURL(web(`/dashboard/devices/${deviceId}`));
      expect(await ownerShown(page, deviceId, 'You')).toBe('You');
    });

    it('"Another person" to a guest and to someone who shares nothing with the owner', async () => {
      const page = testPage();
      expect(await ownerShown(page, deviceId, 'Another person')).toBe('Another person');

      const stranger = await freshPerson();
      await signInPerson(page, stranger, `/dashboard/devices/${deviceId}`);
      await page.waitForURL(web(`/dashboard/devices/${deviceId}`));
      const owned = page.getByTestId('device-owner');
      await owned.getByText('Another person', { exact: true }).waitFor();
      expect((await owned.textContent())?.trim()).toBe('Another person');
      expect(await owned.textContent()).not.toContain(owner.email);
    });

    it("the owner's name and e-mail to staff, who see everyone's", async () => {
      const staff = await freshUser({ groups: ['Administrators'], prefix: 'owner-words-staff' });
      const page = testPage();
      await signInPerson(page, staff, `/dashboard/devices/${deviceId}`);
      await page.waitForURL(web(`/dashboard/devices/${deviceId}`));
      const name = `${owner.givenName} ${owner.familyName}`;
      const owned = page.getByTestId('device-owner');
      await owned.getByRole('link', { name }).waitFor();
      expect(await owned.textContent()).toBe(`${name}${owner.email}`);
    });
  });

  it("a device page draws its panels under the first view one at a time, in the page's order", async () => {
    const page = testPage();
    // A MutationObserver's callback runs at the end of the task whose changes it gathers: headings one callback saw
    // were put on the page by one commit of React's.
    await page.addInitScript(() => {
      const added: [number, string][] = [];
      let callback = 0;
      Object.assign(window, { headingsAdded: added });
      new MutationObserver((records) => {
        callback += 1;
        for (const record of records)
          for (const node of record.addedNodes)
            if (node instanceof Element)
              for (const heading of [node, ...node.querySelectorAll('h2')])
                if (heading.tagName === 'H2') added.push([callback, heading.textContent?.trim() ?? '']);
      }).observe(document, { childList: true, subtree: true });
    });
    await signInPerson(page, owner, `/dashboard/devices/${deviceId}`);
    await page.waitForURL(web(`/dashboard/devices/${deviceId}`));
    await page.getByRole('heading', { name: 'Relations' }).waitFor();
    // The owner's panels that need no chunk of their own; the others (alerts, plans, webhooks) wait for theirs.
    const below = ['Download data', 'Use this data', 'Edit', 'Ingress credentials', 'Ownership', 'Relations'];
    const added = await page.evaluate(() => (window as unknown as { headingsAdded: [number, string][] }).headingsAdded);
    const firstOf = below.map((name) => added.find(([, text]) => text === name));
    expect(firstOf.map((found) => found?.[1])).toEqual(below);
    const callbacks = firstOf.map((found) => found![0]);
    // Each in a commit after the one before: no one task drew two of them.
    expect(callbacks.filter((callback, i) => i > 0 && callback <= callbacks[i - 1]!)).toEqual([]);
  });

  it('a signed-in page loaded afresh goes from its loading page to the page, without drawing the loading page again', async () => {
    const page = testPage();
    await signInPerson(page, owner, `/dashboard/devices/${deviceId}`);
    await page.waitForURL(web(`/dashboard/devices/${deviceId}`));
    await page.getByRole('heading', { level: 1 }).waitFor();
    // What the document gains, in order, from the start of the next load: each loading page and the page's heading.
    await page.addInitScript(() => {
      const added: string[] = [];
      // The parser's records name an element once as added and again inside its parent, when both land in one callback.
      const seen = new WeakSet<Element>();
      Object.assign(window, { loadAdded: added });
      new MutationObserver((records) => {
        for (const record of records)
          for (const node of record.addedNodes)
            if (node instanceof Element)
              for (const element of [node, ...node.querySelectorAll('.loading, h1')])
                if (element.matches('.loading, h1') && !seen.has(element)) {
                  seen.add(element);
                  added.push(element.matches('h1') ? 'page' : 'loading');
                }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.reload();
    await page.getByRole('heading', { level: 1 }).waitFor();
    const added = await page.evaluate(() => (window as unknown as { loadAdded: string[] }).loadAdded);
    // The HTML's loading page, then the app's while it reads the session, then the page. A third loading page was the
    // router's fallback: the page drawn with it was then held back by React until 300 ms after it (issue 36).
    expect(added.slice(0, added.indexOf('page') + 1)).toEqual(['loading', 'loading', 'page']);
  });

  it('the header marks one page as the current one: a page a header link of its own leads to is not also "Dashboard"', async () => {
    const page = testPage();
    await signInPerson(page, owner, `/dashboard/devices/${deviceId}`);
    await page.waitForURL(web(`/dashboard/devices/${deviceId}`));
    const current = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('header [aria-current="page"]')].map((link) => link.getAttribute('href')),
      );
    await page.getByTestId('device-title').waitFor();
    // A device's page is one of the dashboard's.
    expect(await current()).toEqual(['/dashboard']);
    const account = `/dashboard/people/${encodeURIComponent(owner.id)}`;
    for (const path of [
      '/dashboard/alerts',
      '/dashboard/api',
      '/dashboard/cart',
      '/dashboard/notifications',
      account,
    ]) {
      await page.goto(web(path));
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect({ path, current: await current() }).toEqual({ path, current: [path] });
    }
  });

  it('an administrator builds a dataset of a device that is not theirs, and the page logs no error on the way', async () => {
    // A device of someone else's, with a day of readings its tier lets a dataset hold.
    const device = await freshDevice({ productLine: 'sd1', ownerToken: owner.token });
    await setTier(device.id, 'tier1');
    const now = Math.floor(Date.now() / MINUTE) * MINUTE;
    await createReadingsStore({ db: documentClient(), tableName: stack().tables.readings! }).write(
      device.id,
      Array.from({ length: 24 }, (_, i) => ({ timestamp: now - (24 - i) * 30 * MINUTE, values: { pm2_5: i } })),
      now,
    );
    const staff = await freshUser({ groups: ['Administrators'], prefix: 'dataset-staff' });

    const page = testPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await signInPerson(page, staff, '/dashboard/datasets/new');
    await page.waitForURL(web('/dashboard/datasets/new'));
    // Owning none, the administrator is told where to add one, not that they have no devices.
    await page
      .getByTestId('dataset-devices-none')
      .getByText('You have no devices of your own: add any device below.')
      .waitFor();

    await page.getByTestId('dataset-title').fill('A device staff look after');
    await page.getByTestId('dataset-add-device').selectOption({ label: 'Another id…' });
    await page.getByTestId('dataset-add-device-other').fill(device.id);
    await page.getByTestId('dataset-add-device-button').click();
    const chosen = page.getByTestId(`dataset-device-${device.id}`);
    await chosen.waitFor();
    expect(await chosen.isChecked()).toBe(true);
    expect(await page.getByTestId('dataset-devices-none').count()).toBe(0);
    await page.getByTestId('dataset-form-submit').click();

    await page.waitForURL(/\/dashboard\/datasets\/ds_[0-9a-z]{12}$/);
    await page.getByTestId('dataset-status').getByText('Frozen').waitFor({ timeout: 30_000 });
    await page.getByTestId('dataset-state').getByText('Frozen: 24 rows').waitFor();
    expect(errors).toEqual([]);
  });
});
