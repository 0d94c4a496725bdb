import type { LoginReason } from './navigation';

/**
 * The web app's own user-facing wording (shared/messages.ts holds the spec's exact messages, which the
 * app imports from there). Kept in one module so tests and reviewers find every string a user reads.
 */
export const UI_MESSAGES = {
  loginReason: {
    'session-expired': 'Your session expired. Please sign in again.',
    'signed-out': 'You signed out in another tab. Please sign in again.',
  } satisfies Record<LoginReason, string>,
  signingIn: 'Signing you in…',
  browseAsGuest: 'Continue without signing in',
  signInToSee: (what: string) => `Sign in to see ${what}.`,
  signIn: 'Sign in',
  guestDashboard: 'You are browsing as a guest. Public content is open to everyone; sign in to see your own.',
  passwordsDiffer: 'The new passwords do not match.',
  passwordChanged: 'Your password was changed.',
  emailEmpty: 'E-mail cannot be empty',
  emailCodeSent: (to: string) => `We sent a verification code to ${to}.`,
  emailChanged: 'Your e-mail was changed.',
  emailVerified: 'Your e-mail is verified.',
  totpOn: 'An authenticator app is set up: sign-in asks for its code.',
  totpOff: 'No authenticator app is set up.',
  totpScan: 'Scan this QR code with your authenticator app, or type the secret into it, then enter the code it shows.',
  totpSecret: 'Secret:',
  totpEnabled: 'The authenticator app is on: sign-in will ask for its code.',
  totpDisabled: 'The authenticator app is off.',
  signOutEverywhereHint: 'Sign out everywhere ends your sessions on every device and browser at once.',
  unknownError: 'Something went wrong. Please try again.',
  // "None" is itself a group's name (shared/auth/groups.ts), so a person in no group is not shown as "None".
  noGroup: 'Not in any group',
  /** Spec §8: the identity library's generic failure, for an auth error that carries no text. */
  authenticationError: 'Authentication Error',
  notAllowed: 'Your account does not have access to the admin area.',
  notFound: 'There is no page at this address.',
  bootFailed: 'The app could not start.',
  pageFailed: 'This page could not load.',
  parameterValueEmpty: 'Value cannot be empty: enter JSON, e.g. "text", 42, true or {"key": 1}.',
  parameterValueNotJson: (detail: string) => `Value is not valid JSON (text needs double quotes, e.g. "on"): ${detail}`,
  parameterDeleteConfirm: (id: string) => `Delete parameter "${id}"? This cannot be undone.`,
  parametersReadOnly: 'Only Administrators can change system parameters.',
} as const;

/** The words for a `reason` query parameter of the login page; undefined for an unknown reason. */
export const loginReasonText = (reason: string | null | undefined): string | undefined =>
  reason && Object.hasOwn(UI_MESSAGES.loginReason, reason) ? UI_MESSAGES.loginReason[reason as LoginReason] : undefined;
