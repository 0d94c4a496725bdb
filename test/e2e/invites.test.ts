import { INVITE_STATUS_TEXT } from '../../frontend/src/features/invites/invite-rules';
import { newPage, pagePerTest, submitSignIn, web } from '../support/browser';
import { mailText, waitForMail } from '../support/mail';
import { apiAs, apiRejection, tokenOf } from '../support/stack';
import { adminUsers, freshPerson, signInPerson } from './people-fixtures';

const testPage = pagePerTest();

describe('end to end: invites', () => {
  it('a person invites someone by e-mail; the invited person follows the link, signs in, accepts, and the inviter sees it', async () => {
    const [inviter, invited] = await Promise.all([freshPerson(), freshPerson()]);
    const message = 'Come and see my devices';

    const page = testPage();
    await signInPerson(page, inviter, `/dashboard/people/${inviter.id}`);
    await page.waitForURL(web(`/dashboard/people/${inviter.id}`));
    await page.getByTestId('invite-email').fill(invited.email);
    await page.getByTestId('invite-name').fill('Friend');
    await page.getByTestId('invite-message').fill(message);
    await page.getByTestId('invite-submit').click();
    await page.getByTestId('invite-saved').getByText(invited.email).waitFor();

    const sentRow = page.locator('[data-testid^="invites-sent-row-"]').filter({ hasText: invited.email });
    await sentRow.waitFor();
    const inviteId = (await sentRow.getAttribute('data-testid'))?.replace('invites-sent-row-', '') ?? '';
    expect(inviteId).toMatch(/^[0-9a-f-]{36}$/);
    await page.locator(`[data-testid="invites-sent-status-${inviteId}"][data-status="pending"]`).waitFor();

    // The invite e-mail arrives in the local SES store, with the link to the invite.
    const mail = await waitForMail(invited.email, (m) => mailText(m).includes(inviteId));
    expect(mailText(mail)).toContain(`/invites/${inviteId}`);

    // The invited person opens the link as a guest: who invited them and why; they sign in from there.
    const guest = await newPage(page.context().browser()!);
    try {
      await guest.goto(web(`/invites/${inviteId}`));
      await guest.getByTestId('invite-page-from').getByText(inviter.givenName, { exact: false }).waitFor();
      await guest.getByTestId('invite-page-message').getByText(message).waitFor();
      await guest.getByTestId('invite-page-sign-in').click();
      await guest.waitForURL(/\/login\?destination=/);
      await submitSignIn(guest, invited.email, invited.password);
      await guest.waitForURL(web(`/invites/${inviteId}`));
      await guest.getByTestId(`invite-accept-${inviteId}`).click();
      await guest.locator('[data-testid="invite-page-status"][data-status="accepted"]').waitFor();
    } finally {
      await guest.context().close();
    }

    // The inviter sees it accepted.
    await page.reload();
    await page.locator(`[data-testid="invites-sent-status-${inviteId}"][data-status="accepted"]`).waitFor();
    const admin = await adminUsers();
    expect(await admin.getInvite({ params: { id: inviteId } })).toMatchObject({
      status: 'accepted',
      acceptedBy: invited.id,
    });
  });

  it('the invited person declines from their profile; the inviter sees it declined and no relation is made', async () => {
    const [inviter, invited] = await Promise.all([freshPerson(), freshPerson()]);
    const inviterPage = testPage();
    await signInPerson(inviterPage, inviter, `/dashboard/people/${inviter.id}`);
    await inviterPage.waitForURL(web(`/dashboard/people/${inviter.id}`));
    await inviterPage.getByTestId('invite-email').fill(invited.email);
    await inviterPage.getByTestId('invite-submit').click();
    const sentRow = inviterPage.locator('[data-testid^="invites-sent-row-"]').filter({ hasText: invited.email });
    await sentRow.waitFor();
    const inviteId = (await sentRow.getAttribute('data-testid'))?.replace('invites-sent-row-', '') ?? '';

    const theirs = await newPage(inviterPage.context().browser()!);
    try {
      await signInPerson(theirs, invited, `/dashboard/people/${invited.id}`);
      await theirs.waitForURL(web(`/dashboard/people/${invited.id}`));
      await theirs.locator(`[data-testid="invites-received-status-${inviteId}"][data-status="pending"]`).waitFor();
      await theirs.getByTestId(`invite-decline-${inviteId}`).click();
      await theirs.locator(`[data-testid="invites-received-status-${inviteId}"][data-status="declined"]`).waitFor();
      // Answered once: neither answer is offered any more, here or on the invite's own page.
      expect(await theirs.getByTestId(`invite-accept-${inviteId}`).count()).toBe(0);
      await theirs.goto(web(`/invites/${inviteId}`));
      await theirs.locator('[data-testid="invite-page-status"][data-status="declined"]').waitFor();
      expect(await theirs.getByTestId(`invite-accept-${inviteId}`).count()).toBe(0);
    } finally {
      await theirs.context().close();
    }

    await inviterPage.reload();
    const status = inviterPage.locator(`[data-testid="invites-sent-status-${inviteId}"][data-status="declined"]`);
    await status.waitFor();
    expect(await status.textContent()).toContain(INVITE_STATUS_TEXT.declined);
    const invite = await (await adminUsers()).getInvite({ params: { id: inviteId } });
    expect(invite.status).toBe('declined');
    expect(invite).not.toHaveProperty('acceptedBy');
    const relation = `inviter-contact#${inviter.id}#${invited.id}`;
    const missing = await apiRejection(
      apiAs('relations', await tokenOf('admin@example.com')).get({ params: { id: relation } }),
    );
    expect(missing.status).toBe(404);
  });

  it('the inviter withdraws an invite they sent', async () => {
    const inviter = await freshPerson();
    const page = testPage();
    await signInPerson(page, inviter, `/dashboard/people/${inviter.id}`);
    await page.waitForURL(web(`/dashboard/people/${inviter.id}`));
    const email = `withdrawn-${inviter.id.slice(0, 8)}@example.com`;
    await page.getByTestId('invite-email').fill(email);
    await page.getByTestId('invite-submit').click();
    const row = page.locator('[data-testid^="invites-sent-row-"]').filter({ hasText: email });
    await row.waitFor();
    const inviteId = (await row.getAttribute('data-testid'))?.replace('invites-sent-row-', '') ?? '';
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByTestId(`invites-withdraw-${inviteId}`).click();
    await row.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByTestId('invites-sent-empty').waitFor();
  });
});
