import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { keepScreenshot, NARROW, pagePerTest, showRow, signInAs, WIDE, web } from '../support/browser';
import { apiAs, tokenOf, uniqueId } from '../support/stack';
import { freshPerson } from './people-fixtures';

const testPage = pagePerTest();
const ARTIFACTS = path.resolve(import.meta.dirname, 'artifacts');

/** The diff rows of the entry shown first: field, before, after, as a person reads them. */
const firstDiff = async (page: Page) =>
  page
    .getByTestId('audit-list')
    .locator('article')
    .first()
    .getByTestId('audit-entry-diff')
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent?.trim() ?? '')),
    );

describe('end to end: the audit log', () => {
  it("an administrator changes a person's group and a system parameter, then finds both on the audit page with before and after", async () => {
    const person = await freshPerson();
    const id = uniqueId('e2e-audit');
    await apiAs('system', await tokenOf('admin@example.com')).createParameter({ body: { id, value: 'before' } });

    const page = testPage();
    await signInAs(page, 'admin@example.com', `/admin/people/${person.id}`);
    await page.waitForURL(web(`/admin/people/${person.id}`));
    await page.getByTestId('person-group-Authenticated_users').waitFor();
    await page.getByTestId('person-group-add').selectOption('Approved_users');
    await page.getByTestId('person-group-add-submit').click();
    await page.getByTestId('person-group-Approved_users').waitFor();

    await page.goto(web('/admin/parameters'));
    await showRow(page.getByTestId(`parameter-row-${id}`), page.getByTestId('parameters-load-more'));
    await page.getByTestId(`parameter-edit-${id}`).click();
    await page.getByTestId(`parameter-edit-input-${id}`).fill('{"mode":"after"}');
    await page.getByTestId(`parameter-save-${id}`).click();
    await page.getByTestId(`parameter-value-${id}`).getByText('{"mode":"after"}').waitFor();

    // The audit page from the overview, then the group change: everything done to the person.
    await page.goto(web('/admin'));
    await page.getByTestId('admin-audit-link').click();
    await page.waitForURL(web('/admin/audit'));
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    await page.getByTestId('audit-filter-target').fill(person.id);
    await page.getByTestId('audit-search').click();
    const group = page.getByTestId('audit-list').locator('article').first();
    await group.getByRole('heading', { name: 'Added a person to a group' }).waitFor();
    expect(await group.getByTestId('audit-entry-actor').textContent()).toContain('admin@example.com');
    expect(await group.getByTestId('audit-entry-target').getByRole('link').textContent()).toBe(person.email);
    expect(await firstDiff(page)).toEqual([['groups', 'Authenticated_users', 'Authenticated_users, Approved_users']]);
    mkdirSync(ARTIFACTS, { recursive: true });

    // The parameter: the administrator's own changes by e-mail, of one action, found without knowing its id.
    await page.getByTestId('audit-clear').click();
    await page.getByTestId('audit-filter-actor').fill('admin@example.com');
    await page.getByTestId('audit-filter-action').selectOption('parameter.update');
    await page.getByTestId('audit-search').click();
    await page.waitForURL(/actor=admin%40example\.com.*action=parameter\.update/);
    const parameter = page.getByTestId('audit-list').locator('article').first();
    await parameter.getByRole('heading', { name: 'Changed a system parameter' }).waitFor();
    expect(await parameter.getByTestId('audit-entry-target').textContent()).toContain(id);
    expect(await firstDiff(page)).toEqual([
      ['value', 'before', '{"mode":"after"}'],
      ['updated', expect.any(String), expect.any(String)],
    ]);
    // Everything on the parameter: its update, then its creation.
    await parameter.getByRole('button', { name: 'Everything on it' }).click();
    await page.waitForURL(new RegExp(`target=${id}`));
    await page
      .getByTestId('audit-list')
      .locator('article')
      .nth(1)
      .getByRole('heading', { name: 'Created a system parameter' })
      .waitFor();
    expect(await page.getByTestId('audit-list').locator('article').count()).toBe(2);

    for (const viewport of [WIDE, NARROW]) {
      await page.setViewportSize(viewport);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await keepScreenshot(page, path.join(ARTIFACTS, `audit-log-${viewport.width}.png`), { fullPage: true });
    }
  });

  it('tells an Employee the log is for Administrators', async () => {
    const page = testPage();
    await signInAs(page, 'employee@example.com', '/admin/audit');
    await page.getByTestId('audit-not-allowed').waitFor();
    expect(await page.getByTestId('audit-list').count()).toBe(0);
  });
});
