import path from 'node:path';
import type { Page } from 'playwright-core';
import { federatedTokens, ROSA } from '../integration/identity/federation-support';
import { keepScreenshot, NARROW, pagePerTest, signInAs, WIDE, web } from '../support/browser';
import { freshUser } from '../support/people';
import { seedRelation } from '../support/relations';
import { freshDevice } from '../support/sensor-data';
import { apiAs, tokenOf, uniqueId } from '../support/stack';

/**
 * People by name (docs/users.md "Names and e-mails", decision 022): the device, organization, campaign and admin
 * relations pages show people by name, never by id; a person adds a member by typing their e-mail; staff pick a
 * person by name.
 */

const ARTIFACTS = path.resolve(import.meta.dirname, 'artifacts');
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const testPage = pagePerTest();

/** The page's visible text holds no UUID (the object id line aside: that one is an object's id, on purpose). */
const expectNoUuid = async (page: Page) => {
  // All text, the visually hidden labels screen readers read included (stricter than what is painted).
  const text = await page.evaluate(() => {
    const main = document.querySelector('main') ?? document.body;
    const copy = main.cloneNode(true) as HTMLElement;
    for (const id of copy.querySelectorAll('[data-testid="object-id"]')) id.remove();
    // The object picker's choices name a device, organization or campaign with its id beside the name, on purpose
    // (two may share a name); people are never <option>s (the people picker lists them by name).
    for (const option of copy.querySelectorAll('select option')) option.remove();
    return copy.textContent ?? '';
  });
  expect(text).not.toMatch(UUID);
};

const shoot = async (page: Page, name: string) => {
  for (const viewport of [WIDE, NARROW]) {
    await page.setViewportSize(viewport);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await keepScreenshot(page, path.join(ARTIFACTS, `${name}-${viewport.width}.png`), { fullPage: true });
  }
  await page.setViewportSize(WIDE);
};

describe('end to end: people by name', () => {
  it('a person sees members by name and adds one by typing their e-mail; a stranger gets an invitation, then shows by name', async () => {
    const device = await freshDevice({ owner: 'user@example.com' });
    const stranger = await freshUser({ prefix: 'names-e2e', givenName: 'Stella', familyName: 'Stranger' });
    const page = testPage();

    // The shared demo device and organization: their people by name.
    await signInAs(page, 'user@example.com', '/dashboard/devices/demo-device-2');
    await page.getByTestId('device-owner').getByText('April Approved').waitFor();
    await page.getByTestId('members-list').getByText('Uma User', { exact: true }).waitFor();
    await expectNoUuid(page);
    await page.goto(web('/dashboard/organizations/demo-org-1'));
    await page.getByTestId('members-list').getByText('April Approved', { exact: true }).waitFor();
    await page.getByTestId('members-list').getByText('Uma User', { exact: true }).waitFor();
    // How members sign in is the managers' to read (issue 21): a member has no such column.
    expect(await page.getByRole('columnheader', { name: 'Signs in with' }).count()).toBe(0);
    await expectNoUuid(page);

    await page.goto(web(`/dashboard/devices/${device.id}`));
    // Her own device's owner is herself, in her words (issue 36).
    await page.getByTestId('device-owner').getByText('You', { exact: true }).waitFor();
    // Someone Uma shares an organization with is found by their exact address, and listed by name.
    const picker = page.getByTestId('members-add-person');
    await picker.fill('approved@example.com');
    await picker.press('ArrowDown');
    await page.getByTestId('members-add-person-option').filter({ hasText: 'April Approved' }).waitFor();
    await picker.press('Enter');
    // The name replaces the typed address once React has applied the choice (a render later, which under CI load can
    // come after press() returns): wait for the change, then check it, so a choice not made still fails clearly.
    await page
      .waitForFunction(
        (input) => (input as HTMLInputElement).value !== 'approved@example.com',
        await picker.elementHandle(),
        {
          timeout: 10_000,
        },
      )
      .catch(() => undefined);
    expect(await picker.inputValue()).toBe('April Approved');
    await page.getByTestId('members-add-submit').click();
    await page.getByTestId('members-list').getByText('April Approved', { exact: true }).waitFor();

    // Someone she shares nothing with: an invitation, whether or not the address has an account.
    await picker.fill(stranger.email);
    await page
      .getByTestId('members-add-person-option')
      .filter({ hasText: `Invite ${stranger.email}` })
      .click();
    await page.getByTestId('members-add-submit').click();
    await page.getByTestId('members-add-sent').getByText(`Invitation sent to ${stranger.email}`).waitFor();
    expect(await page.getByTestId('members-list').getByText('Stella Stranger', { exact: true }).count()).toBe(0);
    await shoot(page, 'people-names-device');

    const users = apiAs('users', stranger.token);
    const [invite] = (await users.listInvites({ body: { filters: { invitedEmail: stranger.email } } })).items;
    await users.updateInvite({ params: { id: invite!.id }, body: { status: 'accepted' } });
    await page.reload();
    await page.getByTestId('members-list').getByText('Stella Stranger', { exact: true }).waitFor();
    await expectNoUuid(page);
  });

  it("an organization's manager reads how each member signs in, a provider by its label, at phone and desk widths", async () => {
    // Rosa's account is her first sign-in through Northside Air Network; April manages the new organization.
    const rosa = await federatedTokens(ROSA);
    const organization = await apiAs('organizations', await tokenOf('approved@example.com')).create({
      body: { name: `Sign-in ${uniqueId('org')}` },
    });
    await seedRelation('organization-user', organization.id, rosa.access.sub);
    const page = testPage();
    await signInAs(page, 'approved@example.com', `/dashboard/organizations/${organization.id}`);
    // The column's header shows at desk width; at phone width each row carries its labels instead.
    await page.setViewportSize(WIDE);
    const list = page.getByTestId('members-list');
    await list.getByRole('columnheader', { name: 'Signs in with' }).waitFor();
    const rosaRow = list.locator('tbody tr').filter({ hasText: 'Rosa Rivera' });
    await rosaRow.getByText('Northside Air Network', { exact: true }).waitFor();
    // April's password, and Northside Air Network too when a federation test on this stack linked her login first.
    await list
      .locator('tbody tr')
      .filter({ hasText: 'April Approved' })
      .getByText(/^E-mail and password/)
      .waitFor();
    await page.setViewportSize(NARROW);
    expect(await rosaRow.getByText('Northside Air Network', { exact: true }).isVisible()).toBe(true);
    await page.setViewportSize(WIDE);
    await expectNoUuid(page);
    await shoot(page, 'people-names-sign-in');
  });

  it('an administrator sees people by name on the campaign and relations pages and creates a relation by picking a person', async () => {
    const page = testPage();
    await signInAs(page, 'admin@example.com', '/admin/campaigns/demo-campaign-1');
    await page.getByTestId('members-list').getByText('Dana Distributor', { exact: true }).waitFor();
    await expectNoUuid(page);

    const orgId = uniqueId('names-org');
    await page.goto(web(`/admin/relations?referrer=${encodeURIComponent(orgId)}`));
    await page.getByTestId('relations-create-type').selectOption('organization-user');
    // An organization without a record is not listed by name: it is given by id.
    await page.getByTestId('relations-create-referrer').selectOption({ label: 'Another id…' });
    await page.getByTestId('relations-create-referrer-other').fill(orgId);
    const picker = page.getByTestId('relations-create-referent');
    await picker.fill('Nora');
    await page.getByTestId('relations-create-referent-option').filter({ hasText: 'Nora Nogroup' }).click();
    await page.getByTestId('relations-create-submit').click();
    const row = page.locator('[data-testid^="relations-row-organization-user"]');
    await row.getByText('Nora Nogroup', { exact: true }).waitFor();
    // Staff see the e-mail beside the name.
    await row.getByText('nogroup@example.com').waitFor();
    await expectNoUuid(page);
    await shoot(page, 'people-names-relations');

    await page.goto(web('/admin/relations?referrer=demo-org-1'));
    await page.getByText('April Approved').first().waitFor();
    await expectNoUuid(page);
  });
});
