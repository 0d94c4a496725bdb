import type { Page } from 'playwright-core';
import { PEOPLE_MESSAGES } from '../../frontend/src/features/people/people-messages';
import { UI_MESSAGES } from '../../frontend/src/lib/ui-messages';
import { DEMO_PASSWORD } from '../../infra/local/demo-data';
import { MESSAGES } from '../../shared/messages';
import {
  authError,
  authSubmit,
  loginUrl,
  newPage,
  pagePerTest,
  signOutInHeader,
  submitSignIn,
  waitForHeaderUser,
  web,
} from '../support/browser';
import { codeFromMail, mailText, waitForMail } from '../support/mail';
import { type FreshUser, nextSecond } from '../support/people';
import { freshPerson, signInPerson } from './people-fixtures';

const testPage = pagePerTest();

/** An administrator on the person's admin page, in the test's own browser context. */
const adminOn = async (person: FreshUser) => {
  const page = testPage();
  await signInPerson(page, { email: 'admin@example.com', password: DEMO_PASSWORD }, `/admin/people/${person.id}`);
  await page.waitForURL(web(`/admin/people/${person.id}`));
  await page.getByTestId('person-email').getByText(person.email).waitFor();
  return page;
};

/** Clicks one of the staff controls, accepts its question, and waits for the note that it was done. */
const act = async (page: Page, control: string, person: FreshUser, done: string) => {
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByTestId(`person-${control}-${person.id}`).click();
  await page.getByTestId('person-done').getByText(done).waitFor();
};

/** A second browser context, e.g. the person's own browser next to the administrator's. */
const otherBrowser = (page: Page) => newPage(page.context().browser()!);

describe('end to end: staff controls for one person', () => {
  it('reset password: the old one no longer signs in, and the person chooses a new one with an e-mailed code', async () => {
    const person = await freshPerson();
    const admin = await adminOn(person);
    await act(admin, 'reset', person, PEOPLE_MESSAGES.done.reset);
    await codeFromMail(person.email, 1);

    const theirs = await otherBrowser(admin);
    try {
      const chosen = 'After-Reset-Passw0rd';
      await theirs.goto(loginUrl('/dashboard?after=reset'));
      await submitSignIn(theirs, person.email, person.password);
      // Amplify answers "reset required" by starting the forgotten-password flow: a new code is e-mailed.
      await theirs.getByTestId('reset-code').waitFor();
      await theirs.getByTestId('reset-code').fill(await codeFromMail(person.email, 2));
      await theirs.getByTestId('reset-password').fill(chosen);
      await theirs.getByTestId('reset-password-confirm').fill(chosen);
      await authSubmit(theirs).click();

      await theirs.getByTestId('login-email').waitFor();
      await submitSignIn(theirs, person.email, person.password);
      await authError(theirs).getByText('Incorrect username or password.').waitFor();
      await theirs.getByTestId('login-password').fill(chosen);
      await authSubmit(theirs).click();
      await theirs.waitForURL(web('/dashboard?after=reset'));
      await waitForHeaderUser(theirs, person.email);
    } finally {
      await theirs.context().close();
    }
  });

  it('force new password: the person signs in with the e-mailed temporary password and must choose a new one', async () => {
    const person = await freshPerson();
    const admin = await adminOn(person);
    await act(admin, 'forceReset', person, PEOPLE_MESSAGES.done.forceReset);
    const mail = mailText(await waitForMail(person.email, (m) => m.subject === MESSAGES.temporaryPasswordSubject));
    const temporary = /\n\n(\S+)\n\n/.exec(mail)?.[1];
    if (!temporary) throw new Error(`No temporary password in the e-mail:\n${mail}`);
    expect(mail).toContain(web('/login'));

    const theirs = await otherBrowser(admin);
    try {
      const chosen = 'After-Force-Passw0rd';
      await theirs.goto(loginUrl('/dashboard?after=force'));
      await submitSignIn(theirs, person.email, person.password);
      await authError(theirs).getByText('Incorrect username or password.').waitFor();
      await theirs.getByTestId('login-password').fill(temporary);
      await authSubmit(theirs).click();
      await theirs.getByTestId('new-password').fill(chosen);
      await theirs.getByTestId('new-password-confirm').fill(chosen);
      await authSubmit(theirs).click();
      await theirs.waitForURL(web('/dashboard?after=force'));
      await waitForHeaderUser(theirs, person.email);

      // The chosen password is theirs from now on; the temporary one is spent.
      await signOutInHeader(theirs);
      await theirs.goto(loginUrl('/dashboard'));
      await submitSignIn(theirs, person.email, temporary);
      await authError(theirs).getByText('Incorrect username or password.').waitFor();
      await theirs.getByTestId('login-password').fill(chosen);
      await authSubmit(theirs).click();
      await theirs.waitForURL(web('/dashboard'));
    } finally {
      await theirs.context().close();
    }
  });

  it("sign out everywhere: the person's open session is refused on its next call and told why", async () => {
    const person = await freshPerson();
    const profile = `/dashboard/people/${person.id}`;
    const admin = await adminOn(person);
    const theirs = await otherBrowser(admin);
    try {
      await signInPerson(theirs, person, profile);
      await theirs.waitForURL(web(profile));
      await theirs.getByTestId('person-email').getByText(person.email).waitFor();
      // Sign-out times compare with the tokens' whole-second auth_time (docs/users.md).
      await nextSecond();

      await act(admin, 'signOut', person, PEOPLE_MESSAGES.done.signOut);

      await theirs.getByTestId('profile-givenName').fill('Refused');
      await theirs.getByTestId('profile-names-submit').click();
      await theirs.waitForURL(
        (u) =>
          u.pathname === '/login' &&
          u.searchParams.get('reason') === 'session-expired' &&
          u.searchParams.get('destination') === profile,
      );
      expect(await theirs.getByTestId('login-reason').textContent()).toBe(UI_MESSAGES.loginReason['session-expired']);
      // Nothing was saved, and signing in again works at once.
      await submitSignIn(theirs, person.email, person.password);
      await theirs.waitForURL(web(profile));
      await theirs.getByTestId('person-given-name').getByText(person.givenName).waitFor();
    } finally {
      await theirs.context().close();
    }
  });
});
