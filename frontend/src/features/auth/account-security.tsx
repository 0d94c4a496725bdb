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
import {
  type FormEvent,
  type InputHTMLAttributes,
  type ReactNode,
  useCallback,
  useEffect,
  useId,
  useState,
} from 'react';
import { MESSAGES } from '../../../../shared/messages';
import { SignInPrompt } from '../../components/sign-in-prompt';
import { apiClient } from '../../lib/api';
import { authErrorMessage, requireFilled } from '../../lib/auth-errors';
import { runtimeConfig } from '../../lib/runtime-config';
import { useOptionalUser, useSession, useSignedInUser } from '../../lib/session';
import { UI_MESSAGES } from '../../lib/ui-messages';
import {
  BROWSER_MESSAGES,
  type BrowserRow,
  browserRows,
  forgetSignInName,
  rememberSignInName,
} from './remembered-browsers';

/** The issuer name an authenticator app shows next to the account. */
const TOTP_ISSUER = 'Device Data Platform';

type Status = { kind: 'error' | 'done'; text: string } | undefined;

/** Runs one auth step: busy while it runs, the spec's wording when it fails, a confirmation when it succeeds. */
const useStep = () => {
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>();
  const run = useCallback(async (step: () => Promise<string | undefined>) => {
    setBusy(true);
    setStatus(undefined);
    try {
      const done = await step();
      if (done) setStatus({ kind: 'done', text: done });
      return true;
    } catch (error) {
      setStatus({ kind: 'error', text: authErrorMessage(error) });
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, status, run, setStatus };
};

const StatusLine = ({ status, testId }: { status: Status; testId: string }) =>
  status ? (
    <p
      className={status.kind === 'error' ? 'error' : 'notice'}
      role={status.kind === 'error' ? 'alert' : 'status'}
      data-testid={`${testId}-${status.kind === 'error' ? 'error' : 'done'}`}
    >
      {status.text}
    </p>
  ) : null;

const Field = ({
  label,
  testId,
  ...input
}: { label: string; testId: string } & InputHTMLAttributes<HTMLInputElement>) => {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} data-testid={testId} {...input} />
    </div>
  );
};

const Card = ({ title, testId, children }: { title: string; testId: string; children: ReactNode }) => (
  <article className="card" data-testid={testId}>
    <h2>{title}</h2>
    {children}
  </article>
);

/** Change password: the current one and the new one twice (Amplify updatePassword). */
const ChangePassword = () => {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const { busy, status, run } = useStep();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      requireFilled([
        [current, MESSAGES.passwordEmpty],
        [next, MESSAGES.passwordEmpty],
      ]);
      if (next !== again) throw new Error(UI_MESSAGES.passwordsDiffer);
      await updatePassword({ oldPassword: current, newPassword: next });
      setCurrent('');
      setNext('');
      setAgain('');
      return UI_MESSAGES.passwordChanged;
    });
  };

  return (
    <Card title="Password" testId="security-password">
      <form onSubmit={submit} noValidate>
        <Field
          label="Current password"
          testId="password-current"
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
          disabled={busy}
        />
        <Field
          label="New password"
          testId="password-new"
          type="password"
          autoComplete="new-password"
          value={next}
          onChange={(e) => setNext(e.target.value)}
          disabled={busy}
        />
        <Field
          label="New password again"
          testId="password-again"
          type="password"
          autoComplete="new-password"
          value={again}
          onChange={(e) => setAgain(e.target.value)}
          disabled={busy}
        />
        <StatusLine status={status} testId="password" />
        <button type="submit" className="primary" data-testid="password-submit" disabled={busy}>
          Change password
        </button>
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
  const [email, setEmail] = useState<{ value?: string; verified: boolean }>();
  const [draft, setDraft] = useState('');
  const [code, setCode] = useState('');
  const [awaitingCode, setAwaitingCode] = useState(false);
  const { busy, status, run } = useStep();

  const load = useCallback(async () => {
    const attributes = await fetchUserAttributes();
    const verified = attributes.email_verified === 'true';
    setEmail({ value: attributes.email, verified });
    if (!verified) setAwaitingCode(true);
  }, []);
  useEffect(() => {
    void run(async () => {
      await load();
      return undefined;
    });
  }, [load, run]);

  const changed = async () => {
    // A refresh that fails for good ends the session through Amplify's tokenRefresh_failure; one that fails
    // for now leaves the old e-mail in the header until the next refresh, not an error on a change that worked.
    await fetchAuthSession({ forceRefresh: true }).catch(() => undefined);
    await session.refresh();
    onChanged?.();
  };

  const change = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      requireFilled([[draft, UI_MESSAGES.emailEmpty]]);
      const result = await updateUserAttribute({ userAttribute: { attributeKey: 'email', value: draft.trim() } });
      setDraft('');
      await load();
      if (result.nextStep.updateAttributeStep === 'CONFIRM_ATTRIBUTE_WITH_CODE') {
        setAwaitingCode(true);
        return UI_MESSAGES.emailCodeSent(result.nextStep.codeDeliveryDetails?.destination ?? draft.trim());
      }
      await changed();
      return UI_MESSAGES.emailChanged;
    });
  };

  const confirm = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      requireFilled([[code, MESSAGES.confirmationCodeEmpty]]);
      await confirmUserAttribute({ userAttributeKey: 'email', confirmationCode: code.trim() });
      setCode('');
      setAwaitingCode(false);
      await load();
      await changed();
      return UI_MESSAGES.emailVerified;
    });
  };

  const resend = () =>
    void run(async () => {
      const details = await sendUserAttributeVerificationCode({ userAttributeKey: 'email' });
      return UI_MESSAGES.emailCodeSent(details.destination ?? email?.value ?? '');
    });

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
        <form onSubmit={confirm} noValidate>
          <Field
            label="Verification code"
            testId="email-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            disabled={busy}
          />
          <div className="actions">
            <button type="submit" className="primary" data-testid="email-confirm" disabled={busy}>
              Verify
            </button>
            <button type="button" data-testid="email-resend" onClick={resend} disabled={busy}>
              Send the code again
            </button>
          </div>
        </form>
      )}
      <form onSubmit={change} noValidate className="inline-form">
        <Field
          label="New e-mail"
          testId="email-new"
          type="email"
          autoComplete="email"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          disabled={busy}
        />
        <button type="submit" data-testid="email-submit" disabled={busy}>
          Change e-mail
        </button>
      </form>
      <StatusLine status={status} testId="email" />
    </Card>
  );
};

/**
 * Authenticator app (TOTP): set it up with a QR code or the secret (Amplify setUpTOTP, verifyTOTPSetup),
 * make it the preferred second factor (updateMFAPreference), or turn it off.
 */
const AuthenticatorApp = () => {
  const { email, username } = useSignedInUser();
  const [enabled, setEnabled] = useState<boolean>();
  const [setup, setSetup] = useState<{ secret: string; uri: string; qr: string }>();
  const [code, setCode] = useState('');
  const { busy, status, run } = useStep();

  useEffect(() => {
    void run(async () => {
      const preference = await fetchMFAPreference();
      setEnabled(Boolean(preference.enabled?.includes('TOTP')));
      return undefined;
    });
  }, [run]);

  const start = () =>
    void run(async () => {
      const details = await setUpTOTP();
      const uri = details.getSetupUri(TOTP_ISSUER, email ?? username).toString();
      setSetup({ secret: details.sharedSecret, uri, qr: await QRCode.toDataURL(uri, { margin: 1, width: 200 }) });
      return undefined;
    });

  const verify = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      requireFilled([[code, MESSAGES.confirmationCodeEmpty]]);
      await verifyTOTPSetup({ code: code.trim() });
      await updateMFAPreference({ totp: 'PREFERRED' });
      setSetup(undefined);
      setCode('');
      setEnabled(true);
      return UI_MESSAGES.totpEnabled;
    });
  };

  const turnOff = () =>
    void run(async () => {
      await updateMFAPreference({ totp: 'DISABLED' });
      setEnabled(false);
      return UI_MESSAGES.totpDisabled;
    });

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
      ) : setup ? (
        <form onSubmit={verify} noValidate>
          <p>{UI_MESSAGES.totpScan}</p>
          <img src={setup.qr} alt={`QR code for ${setup.uri}`} width={200} height={200} data-testid="totp-qr" />
          <p className="small">
            {UI_MESSAGES.totpSecret} <code data-testid="totp-secret">{setup.secret}</code>
          </p>
          <Field
            label="Code from the app"
            testId="totp-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            disabled={busy}
          />
          <button type="submit" className="primary" data-testid="totp-verify" disabled={busy}>
            Verify and turn on
          </button>
        </form>
      ) : (
        <>
          <p data-testid="totp-state">{UI_MESSAGES.totpOff}</p>
          <button type="button" data-testid="totp-setup" onClick={start} disabled={busy}>
            Set up an authenticator app
          </button>
        </>
      )}
      <StatusLine status={status} testId="totp" />
    </Card>
  );
};

/**
 * The person's signed-in browsers (Cognito's tracked devices): when each was last used and from where, which one is
 * this, and whether it is remembered. This browser can be remembered; any can be forgotten, after which its key no
 * longer stands in for the authenticator code.
 */
const SignedInBrowsers = () => {
  const { email, username } = useSignedInUser();
  const [rows, setRows] = useState<BrowserRow[]>();
  const { busy, status, run } = useStep();
  const skipsCode = runtimeConfig().auth.rememberedDevices?.skipSecondFactor ?? false;

  const load = useCallback(async () => {
    const [devices, current] = await Promise.all([
      fetchDevices(),
      cognitoUserPoolsTokenProvider.tokenOrchestrator.getDeviceMetadata(),
    ]);
    setRows(browserRows(devices, current?.deviceKey));
  }, []);

  useEffect(() => {
    void run(async () => {
      await load();
      return undefined;
    });
  }, [run, load]);

  const remember = () =>
    void run(async () => {
      await rememberDevice();
      // Amplify kept this browser's device under the name the sign-in used: the address, or the pool's user name.
      const devices = cognitoUserPoolsTokenProvider.tokenOrchestrator;
      const current = await devices.getDeviceMetadata();
      if (email) {
        const underAddress = await devices.getDeviceMetadata(email);
        rememberSignInName(email, underAddress?.deviceKey === current?.deviceKey ? email : username);
      }
      await load();
      return BROWSER_MESSAGES.rememberedDone;
    });

  const forget = (row: BrowserRow) =>
    void run(async () => {
      await forgetDevice({ device: { id: row.id } });
      if (row.current && email) forgetSignInName(email);
      await load();
      return BROWSER_MESSAGES.forgotten(row.name);
    });

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
                  <button type="button" data-testid="browser-remember" onClick={remember} disabled={busy}>
                    {BROWSER_MESSAGES.remember}
                  </button>
                ) : null}
                <button
                  type="button"
                  className="danger"
                  data-testid="browser-forget"
                  aria-label={`${BROWSER_MESSAGES.forget} ${row.name}${row.current ? ` (${BROWSER_MESSAGES.thisBrowser})` : ''}`}
                  onClick={() => forget(row)}
                  disabled={busy}
                >
                  {BROWSER_MESSAGES.forget}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <StatusLine status={status} testId="browsers" />
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
  const { busy, status, run } = useStep();

  const everywhere = () =>
    void run(async () => {
      await apiClient('users').adminUserGlobalSignOut({ params: { id } });
      await signOut({ global: true });
      return undefined;
    });

  return (
    <Card title="Sessions" testId="security-sessions">
      <p className="muted small">{UI_MESSAGES.signOutEverywhereHint}</p>
      <div className="actions">
        <button type="button" data-testid="security-sign-out" onClick={() => void signOut()} disabled={busy}>
          Sign out
        </button>
        <button type="button" className="danger" data-testid="sign-out-everywhere" onClick={everywhere} disabled={busy}>
          Sign out everywhere
        </button>
      </div>
      <StatusLine status={status} testId="sessions" />
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
