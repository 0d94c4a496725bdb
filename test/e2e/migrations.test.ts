import { MIGRATIONS } from '../../functions/migrate/migrations/catalogue';
import { pagePerTest, signInAs, web } from '../support/browser';

const testPage = pagePerTest();

describe('end to end: the migrations page', () => {
  it('an administrator sees every migration succeeded at the stack’s start, runs the pending ones and is told none were', async () => {
    const page = testPage();
    await signInAs(page, 'admin@example.com', '/admin');
    await page.waitForURL(web('/admin'));
    await page.getByTestId('admin-migrations-link').click();
    await page.waitForURL(web('/admin/migrations'));
    await page.getByRole('heading', { name: 'Migrations' }).waitFor();

    for (const { id, description } of MIGRATIONS) {
      const row = page.getByTestId(`migration-${id}`);
      await row.getByText(description).waitFor();
      expect(await page.getByTestId(`migration-status-${id}`).textContent()).toBe('Succeeded');
      // Run at the stack's start, or again by an administrator in the migrations integration test.
      expect(await row.textContent()).toMatch(/npm start|Staff member/);
    }

    await page.getByTestId('migrations-run').click();
    expect(await page.getByTestId('migrations-run-result').textContent()).toBe('Nothing was pending.');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });

  it('an employee reads them but has no run button', async () => {
    const page = testPage();
    await signInAs(page, 'employee@example.com', '/admin/migrations');
    await page.waitForURL(web('/admin/migrations'));
    await page.getByTestId(`migration-status-${MIGRATIONS[0].id}`).getByText('Succeeded').waitFor();
    expect(await page.getByTestId('migrations-run').count()).toBe(0);
  });
});
