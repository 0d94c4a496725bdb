import { MESSAGES } from '../../shared/messages';
import { relationId } from '../../shared/relations/relation-types';
import { headerLink, pagePerTest, showRow, signInAs, web } from '../support/browser';
import { apiAs, subOf, tokenOf, uniqueId } from '../support/stack';

const testPage = pagePerTest();

const deviceId = uniqueId('e2e-dev');
let admin: ReturnType<typeof apiAs<'relations'>>;
let userSub: string;
let approvedSub: string;
let ownerId: string;

beforeAll(async () => {
  [admin, userSub, approvedSub] = await Promise.all([
    tokenOf('admin@example.com').then((token) => apiAs('relations', token)),
    subOf('user@example.com'),
    subOf('approved@example.com'),
  ]);
  // Ownership comes from claiming a device (a later issue); until then staff grant it through the API.
  ownerId = (await admin.create({ body: { type: 'device-owner', referrerId: deviceId, referentId: userSub } })).id;
});

afterAll(async () => {
  await admin?.delete({ params: { id: ownerId } }).catch(() => undefined);
});

describe('end to end: members of a device and the relations browser', () => {
  it("a device owner finds the device on the dashboard and manages the device's members", async () => {
    const page = testPage();
    await signInAs(page, 'user@example.com', '/dashboard');
    await page.waitForURL(web('/dashboard'));
    const listed = page.getByTestId(`dashboard-relation-${ownerId}`);
    await showRow(listed, page.getByTestId('dashboard-load-more'));
    await listed.getByRole('link', { name: deviceId }).click();

    await page.waitForURL(web(`/dashboard/devices/${deviceId}`));
    await page.getByTestId('object-id').getByText(deviceId).waitFor();
    const ownRow = page.getByTestId(`members-row-${ownerId}`);
    await ownRow.getByTestId('members-you').waitFor();
    // Ownership is not the owner's to change or give away here.
    expect(await page.getByTestId(`members-remove-${ownerId}`).count()).toBe(0);

    // Granting oneself is refused before anything is sent, with the API's own words.
    await page.getByTestId('members-add-person').fill('user@example.com');
    await page.getByTestId('members-add-person-option').filter({ hasText: 'Uma User' }).click();
    await page.getByTestId('members-add-submit').click();
    await page.getByTestId('members-error').getByText(MESSAGES.relationSelfGrant).waitFor();

    // Someone the owner shares an organization with is found by their exact address, and shown by name.
    const asUser = relationId('device-user', deviceId, approvedSub);
    await page.getByTestId('members-add-person').fill('approved@example.com');
    await page.getByTestId('members-add-person-option').filter({ hasText: 'April Approved' }).click();
    await page.getByTestId('members-add-role').selectOption('device-user');
    await page.getByTestId('members-add-submit').click();
    await page.getByTestId(`members-row-${asUser}`).getByText('April Approved', { exact: true }).waitFor();
    expect(await page.getByTestId('members-error').count()).toBe(0);

    const asAdministrator = relationId('device-administrator', deviceId, approvedSub);
    await page.getByTestId(`members-role-${asUser}`).selectOption('device-administrator');
    await page.getByTestId(`members-row-${asAdministrator}`).waitFor();
    expect(await page.getByTestId(`members-row-${asUser}`).count()).toBe(0);

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByTestId(`members-remove-${asAdministrator}`).click();
    await page.getByTestId(`members-row-${asAdministrator}`).waitFor({ state: 'detached' });

    // Every change went through the gateway: only the ownership is left.
    const left = await admin.listByReferrerId({ params: { id: deviceId, x: 10 } });
    expect(left.items.map((relation) => relation.id)).toEqual([ownerId]);
  });

  it('staff find a relation by its referrer and see the API refuse a duplicate', async () => {
    const page = testPage();
    await signInAs(page, 'admin@example.com', '/admin/relations');
    await page.waitForURL(web('/admin/relations'));
    await page.getByTestId('relations-filter-referrer').fill(deviceId);
    await page.getByTestId('relations-filter-submit').click();
    await page.waitForURL(/referrer=/);
    await showRow(page.getByTestId(`relations-row-${ownerId}`), page.getByTestId('relations-load-more'));

    await page.getByTestId('relations-create-type').selectOption('device-owner');
    // A device without a record is not listed by name: it is given by id.
    await page.getByTestId('relations-create-referrer').selectOption({ label: 'Another id…' });
    await page.getByTestId('relations-create-referrer-other').fill(deviceId);
    await page.getByTestId('relations-create-referent').fill('user@');
    await page.getByTestId('relations-create-referent-option').filter({ hasText: 'Uma User' }).click();
    await page.getByTestId('relations-create-submit').click();
    await page.getByTestId('relations-error').getByText(MESSAGES.relationExists(ownerId)).waitFor();

    // Spec §2: from a /dashboard page, staff get its /admin equivalent, which exists.
    await page.goto(web(`/dashboard/devices/${deviceId}`));
    await headerLink(page, 'Admin');
    await page.waitForURL(web(`/admin/devices/${deviceId}`));
    await page.getByTestId(`members-row-${ownerId}`).waitFor();
  });
});
