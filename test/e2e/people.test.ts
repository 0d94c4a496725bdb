import { DEMO_PASSWORD } from '../../infra/local/demo-data';
import { MESSAGES } from '../../shared/messages';
import { headerLink, newPage, pagePerTest, web } from '../support/browser';
import { mailText, waitForMail } from '../support/mail';
import { apiAs, apiRejection } from '../support/stack';
import { adminUsers, freshPerson, signInPerson } from './people-fixtures';

const testPage = pagePerTest();

/** Accepts the next window.confirm (the staff controls ask before they act). */
const acceptNextDialog = (page: ReturnType<typeof testPage>) => page.once('dialog', (dialog) => void dialog.accept());

describe('end to end: people', () => {
  it('staff find a fresh person by name, disable them (their open session is refused at once), enable them and change their groups', async () => {
    const person = await freshPerson();

    // The person has the app open on their own profile.
    const theirs = testPage();
    await signInPerson(theirs, person, `/dashboard/people/${person.id}`);
    await theirs.waitForURL(web(`/dashboard/people/${person.id}`));
    await theirs.getByTestId('person-email').getByText(person.email).waitFor();

    // An administrator, in another browser context, finds them by first name.
    const browser = theirs.context().browser();
    if (!browser) throw new Error('No browser');
    const staff = await newPage(browser);
    try {
      await signInPerson(staff, { email: 'admin@example.com', password: DEMO_PASSWORD }, '/admin');
      await staff.waitForURL(web('/admin'));
      await staff.getByTestId('admin-people-link').click();
      await staff.waitForURL(web('/admin/people'));
      await staff.getByTestId('people-filter-first').fill(person.givenName.toLowerCase());
      await staff.getByTestId('people-filter-submit').click();
      await staff.waitForURL(/first=/);
      const row = staff.getByTestId(`people-row-${person.id}`);
      // The unfiltered first page may still be on screen (and hold this person) until the filtered one arrives.
      await staff.waitForFunction(() => document.querySelectorAll('[data-testid^="people-row-"]').length === 1);
      await row.waitFor();
      await row.getByText(person.email).waitFor();

      acceptNextDialog(staff);
      await staff.getByTestId(`person-disable-${person.id}`).click();
      await staff.locator(`[data-testid="people-enabled-${person.id}"][data-enabled="false"]`).waitFor();

      // Their next API call is refused (and so is any token they hold from before, which the identity
      // provider would honour until it expires): the session ends and the login page says why.
      await theirs.getByTestId('profile-givenName').fill('Changed');
      await theirs.getByTestId('profile-names-submit').click();
      await theirs.waitForURL(/\/login\?.*reason=session-expired/);
      const refused = await apiRejection(apiAs('users', person.token).getUser({ params: { id: person.id } }));
      expect(refused.status).toBe(401);
      expect(refused.message).toBe(MESSAGES.accountDisabled);

      await staff.getByTestId(`person-enable-${person.id}`).click();
      await staff.locator(`[data-testid="people-enabled-${person.id}"][data-enabled="true"]`).waitFor();

      // Their page: groups, added and removed.
      await staff.getByTestId(`people-link-${person.id}`).click();
      await staff.waitForURL(web(`/admin/people/${person.id}`));
      await staff.getByTestId('person-group-Authenticated_users').waitFor();
      await staff.getByTestId('person-group-add').selectOption('Approved_users');
      await staff.getByTestId('person-group-add-submit').click();
      await staff.getByTestId('person-group-Approved_users').waitFor();
      acceptNextDialog(staff);
      await staff.getByTestId('person-group-remove-Authenticated_users').click();
      await staff.getByTestId('person-group-Authenticated_users').waitFor({ state: 'detached' });

      const admin = await adminUsers();
      const identity = await admin.getUser({ params: { id: person.id } });
      expect(identity.enabled).toBe(true);
      expect(identity.groups).toEqual(['Approved_users']);
    } finally {
      await staff.context().close();
    }
  });

  it('a person renames themself, then asks to delete their account and is signed out', async () => {
    const person = await freshPerson();
    const page = testPage();
    await signInPerson(page, person, '/dashboard');
    await page.waitForURL(web('/dashboard'));
    await page.getByTestId('dashboard-profile-link').click();
    await page.waitForURL(web(`/dashboard/people/${person.id}`));
    await page.getByTestId('profile-heading').getByText('Your profile').waitFor();

    await page.getByTestId('profile-givenName').fill('Robin');
    await page.getByTestId('profile-familyName').fill('Renamed');
    await page.getByTestId('profile-names-submit').click();
    await page.getByTestId('profile-names-saved').waitFor();
    await page.getByTestId('person-given-name').getByText('Robin').waitFor();
    const admin = await adminUsers();
    expect(await admin.getUser({ params: { id: person.id } })).toMatchObject({
      givenName: 'Robin',
      familyName: 'Renamed',
    });

    await page.getByTestId('delete-account-start').click();
    const asked = await page.getByTestId('delete-account-confirm-text').textContent();
    expect(asked).toContain('within 2 to 4 weeks');
    expect(asked).toContain('signed out');
    await page.getByTestId('delete-account-confirm').click();
    await page.waitForURL(/\/login/);

    const record = await admin.getUserRecord({ params: { id: person.id } });
    expect(record.metadata?.deletionQueued).toMatchObject({ selfRequested: true, requester: person.id });
    expect(record.metadata?.deletionQueued?.time).toEqual(expect.any(Number));
    expect((await admin.getUser({ params: { id: person.id } })).enabled).toBe(false);
    expect(mailText(await waitForMail(person.email, (mail) => mailText(mail).includes('2 to 4 weeks')))).toContain(
      '2 to 4 weeks',
    );
  });

  it("staff queue a person's deletion from their page, cancel it (the history keeps it), and e-mail them", async () => {
    const person = await freshPerson();
    const page = testPage();
    await signInPerson(
      page,
      { email: 'employee@example.com', password: DEMO_PASSWORD },
      `/dashboard/people/${person.id}`,
    );
    await page.waitForURL(web(`/dashboard/people/${person.id}`));
    await page.getByTestId('person-email').getByText(person.email).waitFor();
    // Spec §2: staff on a /dashboard page get its /admin equivalent.
    await headerLink(page, 'Admin');
    await page.waitForURL(web(`/admin/people/${person.id}`));

    await page.locator('[data-testid="person-deletion-state"][data-queued="false"]').waitFor();
    acceptNextDialog(page);
    await page.getByTestId('person-queue').click();
    await page.locator('[data-testid="person-deletion-state"][data-queued="true"]').waitFor();
    await page.locator('[data-testid="person-enabled"][data-enabled="false"]').waitFor();
    acceptNextDialog(page);
    await page.getByTestId('person-unqueue').click();
    await page.locator('[data-testid="person-deletion-state"][data-queued="false"]').waitFor();
    await page.getByTestId('person-deletion-history').locator('li').first().waitFor();
    // Only Administrators delete at once.
    expect(await page.getByTestId('person-delete-now').count()).toBe(0);

    const subject = `Hello ${person.givenName}`;
    await page.getByTestId('person-email-subject').fill(subject);
    await page.getByTestId('person-email-text').fill('A word from the team.');
    await page.getByTestId('person-email-submit').click();
    await page.getByTestId('person-email-saved').waitFor();
    await waitForMail(person.email, (mail) => mail.subject === subject);

    const record = await (await adminUsers()).getUserRecord({ params: { id: person.id } });
    expect(record.metadata?.deletionQueued?.time).toBeUndefined();
    expect(record.metadata?.deletionQueued?.history).toHaveLength(1);
  });

  it('an Administrator deletes an account at once, after typing its e-mail', async () => {
    const person = await freshPerson();
    const page = testPage();
    await signInPerson(page, { email: 'admin@example.com', password: DEMO_PASSWORD }, `/admin/people/${person.id}`);
    await page.waitForURL(web(`/admin/people/${person.id}`));
    const button = page.getByTestId('person-delete-now');
    expect(await button.isDisabled()).toBe(true);
    await page.getByTestId('person-delete-now-confirm').fill(person.email.toUpperCase());
    expect(await button.isDisabled()).toBe(true);
    await page.getByTestId('person-delete-now-confirm').fill(person.email);
    await button.click();
    await page.waitForURL(web('/admin/people'));
    await page.getByTestId('people-done').waitFor();

    const gone = await apiRejection((await adminUsers()).getUser({ params: { id: person.id } }));
    expect(gone.status).toBe(404);
  });

  it('a person who is not staff and shares nothing with another sees no profile of them, in words', async () => {
    const [person, other] = await Promise.all([freshPerson(), freshPerson()]);
    const page = testPage();
    await signInPerson(page, person, `/dashboard/people/${other.id}`);
    await page.waitForURL(web(`/dashboard/people/${other.id}`));
    await page.getByTestId('profile-not-allowed').waitFor();
    // Nothing is asked that the API would refuse: the names route answered "not visible".
    expect(await page.getByTestId('profile-error').count()).toBe(0);
    expect(await page.getByTestId('person-facts').count()).toBe(0);
  });
});
