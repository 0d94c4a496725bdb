/**
 * The people and invite screens' own wording. The API's refusals (shared/messages.ts) are shown as they
 * come; these are the texts the web app adds around them.
 */
export const PEOPLE_MESSAGES = {
  loading: 'Loading…',
  noPeople: 'No people match.',
  noEvents: 'No sign-in events recorded yet.',
  notStaffProfile: 'You see the profiles of people you share a device, organization or campaign with.',
  sharedProfile: 'You share a device, organization or campaign with this person.',
  deleteOwnConfirm:
    'Delete your account? It is deleted within 2 to 4 weeks, and you will be signed out now. Until then, staff can cancel the deletion if you ask them.',
  deleteOwnExplain:
    'Your account is disabled at once and deleted within 2 to 4 weeks, with everything the platform holds of you. You will be signed out.',
  queueConfirm: (name: string) =>
    `Queue ${name}'s account for deletion? It is disabled at once and deleted within 2 to 4 weeks.`,
  unqueueConfirm: (name: string) => `Cancel the queued deletion of ${name}'s account? It stays disabled until enabled.`,
  deleteNowExplain: (phrase: string) =>
    `This deletes the account now, with everything the platform holds of the person. It cannot be undone. Type ${phrase} to confirm.`,
  deleteNowMismatch: 'Type the exact text shown to confirm.',
  deletedNow: (name: string) => `${name}'s account was deleted.`,
  disableConfirm: (name: string) => `Disable ${name}? They are signed out of the API at once.`,
  resetConfirm: (name: string) => `Reset ${name}'s password? They get a code by e-mail to choose a new one.`,
  forceResetConfirm: (name: string) =>
    `Force ${name} to choose a new password? They get a temporary one by e-mail and must change it at next sign-in.`,
  signOutConfirm: (name: string) => `Sign ${name} out everywhere? Every session they have ends now.`,
  removeGroupConfirm: (group: string, name: string) => `Remove ${name} from ${group}?`,
  done: {
    disable: 'Disabled.',
    enable: 'Enabled.',
    reset: 'Password reset: a code was e-mailed.',
    forceReset: 'A temporary password was e-mailed.',
    signOut: 'Signed out everywhere.',
    saved: 'Saved.',
    emailSent: 'E-mail sent.',
    queued: 'Deletion queued.',
    unqueued: 'Deletion cancelled.',
  },
  deletionQueued: (from: string, to: string) => `Deletion queued: the account is deleted between ${from} and ${to}.`,
  cacheStale: 'Your saved details were more than 7 days old and were read again.',
} as const;
