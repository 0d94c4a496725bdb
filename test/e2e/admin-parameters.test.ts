import type { Browser, Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../../infra/local/demo-data';
import { launchBrowser } from '../support/browser';
import { apiAs, stack, tokenOf, uniqueId } from '../support/stack';

let browser: Browser;
let page: Page;

const web = () => stack().endpoints.web!;

const signInAs = async (email: string, destination: string) => {
  await page.goto(`${web()}${destination}`);
  await page.waitForURL(/\/login\?destination=/);
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(DEMO_PASSWORD);
  await page.getByTestId('login-submit').click();
};

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  page = await (await browser.newContext()).newPage();
});

afterEach(async () => {
  await page.context().close();
});

describe('end to end: the admin edits a system parameter', () => {
  it('signs in as the demo administrator, lands on the asked-for page and edits a parameter', async () => {
    const id = uniqueId('e2e');
    const admin = apiAs('system', await tokenOf('admin@example.com'));
    await admin.createParameter({ body: { id, value: 'before' } });

    await signInAs('admin@example.com', '/admin/parameters');
    await page.waitForURL(`${web()}/admin/parameters`);
    await page.getByTestId('header-user').getByText('admin@example.com').waitFor();

    // The list is a paged scan: load pages until the parameter shows.
    const row = page.getByTestId(`parameter-row-${id}`);
    const more = page.getByTestId('parameters-load-more');
    for (;;) {
      await row.or(more).first().waitFor({ timeout: 15_000 });
      if (await row.isVisible()) break;
      await more.click();
    }
    expect(await page.getByTestId(`parameter-value-${id}`).textContent()).toBe('"before"');

    await page.getByTestId(`parameter-edit-${id}`).click();
    await page.getByTestId(`parameter-edit-input-${id}`).fill('{"mode":"after"}');
    await page.getByTestId(`parameter-save-${id}`).click();
    await page.getByTestId(`parameter-value-${id}`).getByText('{"mode":"after"}').waitFor();

    // The edit went through the real gateway into DynamoDB.
    expect((await admin.getParameter({ params: { id } })).value).toEqual({ mode: 'after' });
    await admin.deleteParameter({ params: { id } });
  });

  it('shows an Employee the parameters read-only', async () => {
    await signInAs('employee@example.com', '/admin/parameters');
    await page.waitForURL(`${web()}/admin/parameters`);
    await page.getByTestId('parameters-read-only').waitFor();
    expect(await page.getByTestId('parameter-create').count()).toBe(0);
  });

  it('keeps a user without a staff role out of the admin area', async () => {
    await signInAs('user@example.com', '/admin/parameters');
    await page.getByTestId('not-allowed').waitFor();
  });
});
