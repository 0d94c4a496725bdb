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
