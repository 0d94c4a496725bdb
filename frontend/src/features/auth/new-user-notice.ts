import { logAndReturnNothing } from '../../../../shared/errors/handling';

/**
 * The administrators hear of a new person once (GET /newUserNotice/{id}; the API sends it once per person).
 * The browser that confirmed a sign-up remembers it until the automatic sign-in that follows, whose user id
 * the notice needs; a sign-up confirmed but never signed into is announced at its first sign-in here.
 */
const KEY = 'ddp.announce-new-user';

type Flags = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const sessionFlags = (): Flags | undefined => {
  try {
    return sessionStorage;
  } catch {
    // Storage can be unavailable (private mode): the notice then waits for staff to send it from the admin page.
    return undefined;
  }
};

export const rememberNewUser = (flags: Flags | undefined = sessionFlags()): void => {
  flags?.setItem(KEY, '1');
};

/** Sends the notice if this browser just confirmed a sign-up; a failure is logged, never shown to the new user. */
export const announceNewUser = (
  userId: string,
  send: (userId: string) => Promise<unknown>,
  flags: Flags | undefined = sessionFlags(),
): void => {
  if (flags?.getItem(KEY) !== '1') return;
  flags.removeItem(KEY);
  void logAndReturnNothing('The new-user notice was not sent', () => send(userId));
};
