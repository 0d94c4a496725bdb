import { UI_MESSAGES } from '../../frontend/src/lib/ui-messages';
import { DEFAULT_PAGE_SIZE } from '../../shared/contracts/common';
import { pagePerTest, showRow, signInAs, waitForHeaderUser, web } from '../support/browser';
import { apiAs, tokenOf, uniqueId } from '../support/stack';

const testPage = pagePerTest();

describe('end to end: the admin edits a system parameter', () => {
  it('signs in as the demo administrator, lands on the asked-for page and edits a parameter', async () => {
    const id = uniqueId('e2e');
    const admin = apiAs('system', await tokenOf('admin@example.com'));
    await admin.createParameter({ body: { id, value: 'before' } });

    const page = testPage();
    await signInAs(page, 'admin@example.com', '/admin/parameters');
    await page.waitForURL(web('/admin/parameters'));
    await waitForHeaderUser(page, 'admin@example.com');

    // The list is a paged scan: load pages until the parameter shows.
    await showRow(page.getByTestId(`parameter-row-${id}`), page.getByTestId('parameters-load-more'));
    expect(await page.getByTestId(`parameter-value-${id}`).textContent()).toBe('"before"');

    await page.getByTestId(`parameter-edit-${id}`).click();
    await page.getByTestId(`parameter-edit-input-${id}`).fill('{"mode":"after"}');
    await page.getByTestId(`parameter-save-${id}`).click();
    await page.getByTestId(`parameter-value-${id}`).getByText('{"mode":"after"}').waitFor();

    // The edit went through the real gateway into DynamoDB.
    expect((await admin.getParameter({ params: { id } })).value).toEqual({ mode: 'after' });
    await admin.deleteParameter({ params: { id } });
  });

  it('checks a new parameter before it is sent, in words next to the field', async () => {
    const page = testPage();
    await signInAs(page, 'admin@example.com', '/admin/parameters');
    await page.getByTestId('parameter-new-id').fill(uniqueId('e2e-bad'));
    await page.getByTestId('parameter-new-value').fill('on');
    await page.getByTestId('parameter-new-submit').click();
    const said = await page.getByTestId('parameter-new-value-error').textContent();
    expect(said).toMatch(/^Value is not valid JSON \(text needs double quotes, e\.g\. "on"\): /);
    expect(await page.getByTestId('parameter-new-error').textContent()).toBe(said);
    expect(await page.getByTestId('parameter-new-value').getAttribute('aria-invalid')).toBe('true');

    await page.getByTestId('parameter-new-value').fill('');
    await page.getByTestId('parameter-new-submit').click();
    await page.getByTestId('parameter-new-error').getByText(UI_MESSAGES.parameterValueEmpty).waitFor();
  });

  it('pages the list from the keyboard: "Load more" keeps the focus, the last page hands it to its first row', async () => {
    const admin = apiAs('system', await tokenOf('admin@example.com'));
    const ids = Array.from({ length: DEFAULT_PAGE_SIZE + 5 }, (_, index) => uniqueId(`e2e-page-${index}`));
    for (let at = 0; at < ids.length; at += 10) {
      await Promise.all(ids.slice(at, at + 10).map((id) => admin.createParameter({ body: { id, value: at } })));
    }
    try {
      const page = testPage();
      await signInAs(page, 'admin@example.com', '/admin/parameters');
      const more = page.getByTestId('parameters-load-more');
      await more.focus();
      const rows = 'tbody tr[data-list-item]';
      for (;;) {
        const shown = await page.locator(rows).count();
        await page.keyboard.press('Enter');
        // The page has come once the rows grew, or the button left (a last page may bring nothing).
        await page.waitForFunction(
          ([selector, before]) =>
            document.querySelectorAll(selector).length > before ||
            !document.querySelector('[data-testid="parameters-load-more"]'),
          [rows, shown] as const,
        );
        const focused = await page.evaluate(
          (selector) => [...document.querySelectorAll(selector)].indexOf(document.activeElement!),
          rows,
        );
        if (await more.count()) {
          // Another page waits: the button kept the focus, so Enter asks for it.
          expect(await more.evaluate((button) => button === document.activeElement)).toBe(true);
          continue;
        }
        const now = await page.locator(rows).count();
        expect(focused).toBe(now > shown ? shown : shown - 1);
        break;
      }
    } finally {
      await Promise.all(ids.map((id) => admin.deleteParameter({ params: { id } })));
    }
  });

  it('shows an Employee the parameters read-only', async () => {
    const page = testPage();
    await signInAs(page, 'employee@example.com', '/admin/parameters');
    await page.waitForURL(web('/admin/parameters'));
    await page.getByTestId('parameters-read-only').waitFor();
    expect(await page.getByTestId('parameter-new-submit').count()).toBe(0);
  });

  it('keeps a user without a staff role out of the admin area', async () => {
    const page = testPage();
    await signInAs(page, 'user@example.com', '/admin/parameters');
    await page.getByTestId('not-allowed').waitFor();
  });
});
