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
  unsupportedSignInStep: (step: string) => `Sign-in needs a further step (${step}) that this app does not support yet.`,
  unknownError: 'Something went wrong. Please try again.',
  notAllowed: 'Your account does not have access to the admin area.',
  notFound: 'There is no page at this address.',
  bootFailed: 'The app could not start.',
  parameterValueEmpty: 'Value cannot be empty: enter JSON, e.g. "text", 42, true or {"key": 1}.',
  parameterValueNotJson: (detail: string) => `Value is not valid JSON (text needs double quotes, e.g. "on"): ${detail}`,
  parameterDeleteConfirm: (id: string) => `Delete parameter "${id}"? This cannot be undone.`,
  parametersReadOnly: 'Only Administrators can change system parameters.',
} as const;

/** The words for a `reason` query parameter of the login page; undefined for an unknown reason. */
export const loginReasonText = (reason: string | null | undefined): string | undefined =>
  reason && Object.hasOwn(UI_MESSAGES.loginReason, reason) ? UI_MESSAGES.loginReason[reason as LoginReason] : undefined;
