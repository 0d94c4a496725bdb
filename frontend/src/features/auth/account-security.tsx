import { type QueryKey, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  confirmUserAttribute,
  fetchAuthSession,
  fetchDevices,
  fetchMFAPreference,
  fetchUserAttributes,
  forgetDevice,
  rememberDevice,
  sendUserAttributeVerificationCode,
  setUpTOTP,
  updateMFAPreference,
  updatePassword,
  updateUserAttribute,
  verifyTOTPSetup,
} from 'aws-amplify/auth';
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito';
import QRCode from 'qrcode';
import { type FormEvent, type ReactNode, useState } from 'react';
import { MESSAGES } from '../../../../shared/messages';
import { DoneNote, ErrorAlert, SubmitButton } from '../../components/form-parts';
import { SignInPrompt } from '../../components/sign-in-prompt';
import { apiClient } from '../../lib/api';
import { toUserFacingError } from '../../lib/auth-errors';
import { type Checked, problem } from '../../lib/form-check';
import { TextField } from '../../lib/form-fields';
import { errorOf, useSaidChanges } from '../../lib/query';
import { runtimeConfig } from '../../lib/runtime-config';
import { useOptionalUser, useSession, useSignedInUser } from '../../lib/session';
import { UI_MESSAGES } from '../../lib/ui-messages';
import { useCheckedSubmit } from '../../lib/use-checked-submit';
import {
  BROWSER_MESSAGES,
  type BrowserRow,
  browserRows,
  forgetSignInName,
  rememberSignInName,
} from './remembered-browsers';

/** The issuer name an authenticator app shows next to the account. */
const TOTP_ISSUER = 'Device Data Platform';

/**
 * The signed-in person's state at the identity provider, read through the app's one query cache (decision 015) under
 * these keys and read again after each change: Amplify acts on the caller's own tokens, so the keys name the user.
 */
const identityKeys = {
  attributes: (userId: string): QueryKey => ['identity', userId, 'attributes'],
  mfa: (userId: string): QueryKey => ['identity', userId, 'mfa-preference'],
  browsers: (userId: string): QueryKey => ['identity', userId, 'browsers'],
};

/** An identity-provider step whose failure reads in the spec's words (lib/auth-errors.ts), in a query or a change. */
const inAuthWords =
  <A extends unknown[], T>(step: (...args: A) => Promise<T>) =>
  async (...args: A): Promise<T> => {
    try {
      return await step(...args);
    } catch (error) {
      throw toUserFacingError(error);
    }
  };

/** Values a form needs, each refused while blank with the spec's message, next to its field. */
const required = <T,>(
  checks: readonly (readonly [field: string, value: string, message: string])[],
  value: T,
): Checked<T> => {
  const empty = checks.find(([, text]) => !text.trim());
  return empty ? problem(empty[0], empty[2]) : { ok: true, value };
};

/** How a card's latest action went (a card has a form and buttons beside it), under them. */
const CardOutcome = ({ testId, outcome }: { testId: string; outcome: { error?: string; done?: string } }) => (
  <>
    <ErrorAlert testId={`${testId}-error`} error={outcome.error} />
    <DoneNote testId={`${testId}-done`} text={outcome.done} />
  </>
);

const Card = ({ title, testId, children }: { title: string; testId: string; children: ReactNode }) => (
  <article className="card" data-testid={testId} aria-labelledby={`${testId}-heading`}>
    <h2 id={`${testId}-heading`}>{title}</h2>
    {children}
  </article>
);

/** Change password: the current one and the new one twice (Amplify updatePassword). */
const ChangePassword = () => {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const form = useCheckedSubmit(
    () => {
      const checked = required(
        [
          ['current', current, MESSAGES.passwordEmpty],
          ['next', next, MESSAGES.passwordEmpty],
        ],
        { oldPassword: current, newPassword: next },
      );
      return checked.ok && again !== next ? problem('again', UI_MESSAGES.passwordsDiffer) : checked;
    },
    inAuthWords(async (passwords: { oldPassword: string; newPassword: string }) => {
      await updatePassword(passwords);
      setCurrent('');
      setNext('');
      setAgain('');
      return UI_MESSAGES.passwordChanged;
    }),
  );

  return (
    <Card title="Password" testId="security-password">
      <form onSubmit={form.submit} onChange={form.edited} noValidate>
        <TextField
          id="password-current"
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={setCurrent}
          disabled={form.busy}
          error={form.fields.current}
        />
        <TextField
          id="password-new"
          label="New password"
          type="password"
          autoComplete="new-password"
          value={next}
          onChange={setNext}
          disabled={form.busy}
          error={form.fields.next}
        />
        <TextField
          id="password-again"
          label="New password again"
          type="password"
          autoComplete="new-password"
          value={again}
          onChange={setAgain}
          disabled={form.busy}
          error={form.fields.again}
        />
        <CardOutcome testId="password" outcome={form} />
        <SubmitButton testId="password-submit" busy={form.busy} busyText="Changing…">
          Change password
        </SubmitButton>
      </form>
    </Card>
  );
};

/**
 * E-mail: change it (Amplify updateUserAttribute), then confirm the new address with the code sent to it
 * (confirmUserAttribute); the code can be sent again (sendUserAttributeVerificationCode). Once the address
 * changed, the tokens are refreshed (the ID token carries the e-mail the header shows) and `onChanged` lets
 * the page read the person again, so no part of the screen keeps showing the old address.
 */
const EmailAddress = ({ onChanged }: { onChanged?: () => void }) => {
  const session = useSession();
  const { id: userId } = useSignedInUser();
  const attributesKey = identityKeys.attributes(userId);
  const attributes = useQuery({
    queryKey: attributesKey,
    queryFn: inAuthWords(async () => {
      const read = await fetchUserAttributes();
      return { value: read.email, verified: read.email_verified === 'true' };
    }),
  });
  const email = attributes.data;
  const [draft, setDraft] = useState('');
  const [code, setCode] = useState('');
  // Cognito may keep the old address verified until the new one is confirmed: a code sent is waited for either way.
  const [codeSent, setCodeSent] = useState(false);
  const awaitingCode = codeSent || email?.verified === false;
  const [latest, setLatest] = useState<'change' | 'confirm' | 'resend'>();

  const changed = async () => {
    // A refresh that fails for good ends the session through Amplify's tokenRefresh_failure; one that fails
    // for now leaves the old e-mail in the header until the next refresh, not an error on a change that worked.
    await fetchAuthSession({ forceRefresh: true }).catch(() => undefined);
    await session.refresh();
    onChanged?.();
  };

  const change = useCheckedSubmit(
    () => required([['email', draft, UI_MESSAGES.emailEmpty]], draft.trim()),
    inAuthWords(async (value: string) => {
      const result = await updateUserAttribute({ userAttribute: { attributeKey: 'email', value } });
      setDraft('');
      if (result.nextStep.updateAttributeStep === 'CONFIRM_ATTRIBUTE_WITH_CODE') {
        setCodeSent(true);
        return UI_MESSAGES.emailCodeSent(result.nextStep.codeDeliveryDetails?.destination ?? value);
      }
      await changed();
      return UI_MESSAGES.emailChanged;
    }),
    [attributesKey],
  );

  const confirm = useCheckedSubmit(
    () => required([['code', code, MESSAGES.confirmationCodeEmpty]], code.trim()),
    inAuthWords(async (confirmationCode: string) => {
      await confirmUserAttribute({ userAttributeKey: 'email', confirmationCode });
      setCode('');
      setCodeSent(false);
      await changed();
      return UI_MESSAGES.emailVerified;
    }),
    [attributesKey],
  );

  const resend = useSaidChanges<'resend'>();
  const sendAgain = () => {
    setLatest('resend');
    void resend.run(
      'resend',
      inAuthWords(async () => {
        const details = await sendUserAttributeVerificationCode({ userAttributeKey: 'email' });
        return UI_MESSAGES.emailCodeSent(details.destination ?? email?.value ?? '');
      }),
      [],
    );
  };

  const busy = change.busy || confirm.busy || resend.busy !== undefined;
  const submitted = (which: 'change' | 'confirm', form: typeof change) => (event: FormEvent<HTMLFormElement>) => {
    setLatest(which);
    form.submit(event);
  };
  const outcome =
    latest === 'change'
      ? change
      : latest === 'confirm'
        ? confirm
        : latest === 'resend'
          ? resend
          : { error: errorOf(attributes) };

  return (
    <Card title="E-mail" testId="security-email">
      <p>
        <span data-testid="email-current">{email?.value ?? '…'}</span>{' '}
        {email && (
          <span className="muted small" data-testid="email-verified">
            {email.verified ? '(verified)' : '(not verified)'}
          </span>
        )}
      </p>
      {awaitingCode && (
        <form onSubmit={submitted('confirm', confirm)} noValidate>
          <TextField
            id="email-code"
            label="Verification code"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={setCode}
            disabled={busy}
            error={confirm.fields.code}
          />
          <div className="actions">
            <SubmitButton testId="email-confirm" busy={confirm.busy} busyText="Verifying…" disabled={busy}>
              Verify
            </SubmitButton>
            <button type="button" data-testid="email-resend" onClick={sendAgain} disabled={busy}>
              Send the code again
            </button>
          </div>
        </form>
      )}
      <form onSubmit={submitted('change', change)} noValidate className="inline-form">
        <TextField
          id="email-new"
          label="New e-mail"
          type="email"
          autoComplete="email"
          value={draft}
          onChange={setDraft}
          disabled={busy}
          error={change.fields.email}
        />
        <SubmitButton testId="email-submit" busy={change.busy} busyText="Changing…" disabled={busy}>
          Change e-mail
        </SubmitButton>
      </form>
      <CardOutcome testId="email" outcome={outcome} />
    </Card>
  );
};

interface TotpSetup {
  secret: string;
  uri: string;
  qr: string;
}

/**
 * Authenticator app (TOTP): set it up with a QR code or the secret (Amplify setUpTOTP, verifyTOTPSetup),
 * make it the preferred second factor (updateMFAPreference), or turn it off.
 */
const AuthenticatorApp = () => {
  const { id: userId, email, username } = useSignedInUser();
  const queries = useQueryClient();
  const mfaKey = identityKeys.mfa(userId);
  const preference = useQuery({
    queryKey: mfaKey,
    queryFn: inAuthWords(async () => Boolean((await fetchMFAPreference()).enabled?.includes('TOTP'))),
  });
  const enabled = preference.data;
  const [code, setCode] = useState('');
  const [latest, setLatest] = useState<'setup' | 'verify' | 'off'>();

  // Each setup asks Cognito for a new secret (AssociateSoftwareToken): a change, not a read to repeat on a refetch.
  const setup = useMutation({
    mutationFn: inAuthWords(async (): Promise<TotpSetup> => {
      const details = await setUpTOTP();
      const uri = details.getSetupUri(TOTP_ISSUER, email ?? username).toString();
      return { secret: details.sharedSecret, uri, qr: await QRCode.toDataURL(uri, { margin: 1, width: 200 }) };
    }),
  });
  const start = () => {
    setLatest('setup');
    setup.mutate();
  };

  const verify = useCheckedSubmit(
    () => required([['code', code, MESSAGES.confirmationCodeEmpty]], code.trim()),
    inAuthWords(async (totpCode: string) => {
      await verifyTOTPSetup({ code: totpCode });
      await updateMFAPreference({ totp: 'PREFERRED' });
      // Known now; the read that follows confirms it.
      queries.setQueryData(mfaKey, true);
      setup.reset();
      setCode('');
      return UI_MESSAGES.totpEnabled;
    }),
    [mfaKey],
  );

  const off = useSaidChanges<'off'>();
  const turnOff = () => {
    setLatest('off');
    void off.run(
      'off',
      inAuthWords(async () => {
        await updateMFAPreference({ totp: 'DISABLED' });
        queries.setQueryData(mfaKey, false);
        return UI_MESSAGES.totpDisabled;
      }),
      [mfaKey],
    );
  };

  const busy = setup.isPending || verify.busy || off.busy !== undefined;
  const outcome =
    latest === 'setup'
      ? { error: errorOf(setup) }
      : latest === 'verify'
        ? verify
        : latest === 'off'
          ? off
          : { error: errorOf(preference) };

  return (
    <Card title="Authenticator app" testId="security-totp">
      {enabled === undefined ? (
        <p className="muted">…</p>
      ) : enabled ? (
        <>
          <p data-testid="totp-state">{UI_MESSAGES.totpOn}</p>
          <button type="button" className="danger" data-testid="totp-disable" onClick={turnOff} disabled={busy}>
            Turn off
          </button>
        </>
      ) : setup.data ? (
        <form
          onSubmit={(event) => {
            setLatest('verify');
            verify.submit(event);
          }}
          noValidate
        >
          <p>{UI_MESSAGES.totpScan}</p>
          <img
            src={setup.data.qr}
            alt={`QR code for ${setup.data.uri}`}
            width={200}
            height={200}
            data-testid="totp-qr"
          />
          <p className="small">
            {UI_MESSAGES.totpSecret} <code data-testid="totp-secret">{setup.data.secret}</code>
          </p>
          <TextField
            id="totp-code"
            label="Code from the app"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={setCode}
            disabled={busy}
            error={verify.fields.code}
          />
          <SubmitButton testId="totp-verify" busy={verify.busy} busyText="Verifying…" disabled={busy}>
            Verify and turn on
          </SubmitButton>
        </form>
      ) : (
        <>
          <p data-testid="totp-state">{UI_MESSAGES.totpOff}</p>
          <button type="button" data-testid="totp-setup" onClick={start} disabled={busy}>
            Set up an authenticator app
          </button>
        </>
      )}
      <CardOutcome testId="totp" outcome={outcome} />
    </Card>
  );
};

/**
 * The person's signed-in browsers (Cognito's tracked devices): when each was last used and from where, which one is
 * this, and whether it is remembered. This browser can be remembered; any can be forgotten, after which its key no
 * longer stands in for the authenticator code.
 */
const SignedInBrowsers = () => {
  const { id: userId, email, username } = useSignedInUser();
  const browsersKey = identityKeys.browsers(userId);
  const browsers = useQuery({
    queryKey: browsersKey,
    queryFn: inAuthWords(async (): Promise<BrowserRow[]> => {
      const [devices, current] = await Promise.all([
        fetchDevices(),
        cognitoUserPoolsTokenProvider.tokenOrchestrator.getDeviceMetadata(),
      ]);
      return browserRows(devices, current?.deviceKey);
    }),
  });
  const rows = browsers.data;
  const changes = useSaidChanges<'remember' | `forget:${string}`>();
  const { busy, run } = changes;
  const skipsCode = runtimeConfig().auth.rememberedDevices?.skipSecondFactor ?? false;

  const remember = () =>
    void run(
      'remember',
      inAuthWords(async () => {
        await rememberDevice();
        // Amplify kept this browser's device under the name the sign-in used: the address, or the pool's user name.
        const devices = cognitoUserPoolsTokenProvider.tokenOrchestrator;
        const current = await devices.getDeviceMetadata();
        if (email) {
          const underAddress = await devices.getDeviceMetadata(email);
          rememberSignInName(email, underAddress?.deviceKey === current?.deviceKey ? email : username);
        }
        return BROWSER_MESSAGES.rememberedDone;
      }),
      [browsersKey],
    );

  const forget = (row: BrowserRow) =>
    void run(
      `forget:${row.id}`,
      inAuthWords(async () => {
        await forgetDevice({ device: { id: row.id } });
        if (row.current && email) forgetSignInName(email);
        return BROWSER_MESSAGES.forgotten(row.name);
      }),
      [browsersKey],
    );

  return (
    <Card title={BROWSER_MESSAGES.title} testId="security-browsers">
      <p className="muted small">{skipsCode ? BROWSER_MESSAGES.skipsCode : BROWSER_MESSAGES.asksCode}</p>
      {rows === undefined ? (
        <p className="muted">…</p>
      ) : rows.length === 0 ? (
        <p>{BROWSER_MESSAGES.none}</p>
      ) : (
        <ul className="browser-list" data-testid="browser-list">
          {rows.map((row) => (
            <li key={row.id} data-testid="browser-row">
              <div>
                <strong title={row.detail}>{row.name}</strong>
                {row.current ? <span className="badge">{BROWSER_MESSAGES.thisBrowser}</span> : null}
              </div>
              <p className="muted small">
                {row.remembered ? BROWSER_MESSAGES.remembered : BROWSER_MESSAGES.notRemembered} · {row.lastUsed}
              </p>
              <div className="actions">
                {row.current && !row.remembered ? (
                  <button type="button" data-testid="browser-remember" onClick={remember} disabled={busy !== undefined}>
                    {BROWSER_MESSAGES.remember}
                  </button>
                ) : null}
                <button
                  type="button"
                  className="danger"
                  data-testid="browser-forget"
                  aria-label={`${BROWSER_MESSAGES.forget} ${row.name}${row.current ? ` (${BROWSER_MESSAGES.thisBrowser})` : ''}`}
                  onClick={() => forget(row)}
                  disabled={busy !== undefined}
                >
                  {BROWSER_MESSAGES.forget}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <CardOutcome testId="browsers" outcome={changes.error || changes.done ? changes : { error: errorOf(browsers) }} />
    </Card>
  );
};

/**
 * Sign out here, or everywhere: the users API first marks the global sign-out (our API then refuses every
 * token issued before it, at once), then Amplify revokes the refresh tokens and clears this browser.
 */
const SignOutCard = () => {
  const { signOut } = useSession();
  const { id } = useSignedInUser();
  const changes = useSaidChanges<'everywhere'>();
  const { busy, run } = changes;

  const everywhere = () =>
    void run(
      'everywhere',
      inAuthWords(async () => {
        await apiClient('users').adminUserGlobalSignOut({ params: { id } });
        await signOut({ global: true });
        return undefined;
      }),
      [],
    );

  return (
    <Card title="Sessions" testId="security-sessions">
      <p className="muted small">{UI_MESSAGES.signOutEverywhereHint}</p>
      <div className="actions">
        <button
          type="button"
          data-testid="security-sign-out"
          onClick={() => void signOut()}
          disabled={busy !== undefined}
        >
          Sign out
        </button>
        <button
          type="button"
          className="danger"
          data-testid="sign-out-everywhere"
          onClick={everywhere}
          disabled={busy !== undefined}
        >
          Sign out everywhere
        </button>
      </div>
      <CardOutcome testId="sessions" outcome={changes} />
    </Card>
  );
};

/**
 * The signed-in user's account security: password, e-mail, authenticator app, sign-out (here or everywhere).
 * Always about the caller's own account (Amplify acts on the caller's tokens); a guest is asked to sign in.
 * `onEmailChanged` runs once the e-mail changed, for a page that shows it from elsewhere (the users API).
 */
export const AccountSecurity = ({ onEmailChanged }: { onEmailChanged?: () => void }) => {
  const user = useOptionalUser();
  if (!user) return <SignInPrompt what="your account security" />;
  return (
    <section className="account-security" data-testid="account-security" aria-label="Account security">
      <div className="cards">
        <ChangePassword />
        <EmailAddress onChanged={onEmailChanged} />
        <AuthenticatorApp />
        <SignedInBrowsers />
        <SignOutCard />
      </div>
    </section>
  );
};
