/**
 * Remembered browsers (spec §7's device operations, docs/decisions/039-remembered-devices.md): what the account page
 * lists, and the sign-in name that lets Amplify find this browser's device again.
 */

/** A browser as Amplify's fetchDevices returns it (Cognito's ListDevices). */
export interface FetchedDevice {
  id: string;
  name?: string;
  attributes?: Record<string, string>;
  createDate?: Date;
  lastAuthenticatedDate?: Date;
  lastModifiedDate?: Date;
}

export interface BrowserRow {
  id: string;
  name: string;
  current: boolean;
  remembered: boolean;
  /** "Last used …", and where from when Cognito knows the address. */
  lastUsed: string;
}

export const BROWSER_MESSAGES = {
  title: 'Signed-in browsers',
  none: 'No browser is listed yet: a browser is listed once you sign in with it.',
  skipsCode: 'A remembered browser signs in without the authenticator code.',
  asksCode: 'This environment asks for the authenticator code even in a remembered browser.',
  unnamed: 'Unnamed browser',
  thisBrowser: 'This browser',
  remembered: 'Remembered',
  notRemembered: 'Not remembered',
  remember: 'Remember this browser',
  forget: 'Forget',
  rememberedDone: 'This browser is remembered.',
  forgotten: (name: string) => `${name} was forgotten: it will be asked for every sign-in step again.`,
} as const;

const when = (date: Date) => date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The account page's rows: this browser first, then the most recently used. */
export const browserRows = (devices: readonly FetchedDevice[], currentKey: string | undefined): BrowserRow[] =>
  devices
    .map((device) => {
      const last = device.lastAuthenticatedDate ?? device.lastModifiedDate ?? device.createDate;
      const ip = device.attributes?.last_ip_used;
      return {
        id: device.id,
        name: device.name || device.attributes?.device_name || BROWSER_MESSAGES.unnamed,
        current: device.id === currentKey,
        remembered: device.attributes?.device_status === 'remembered',
        lastUsed: `${last ? `Last used ${when(last)}` : 'Never used'}${ip ? ` from ${ip}` : ''}`,
        at: last?.getTime() ?? 0,
      };
    })
    .sort((a, b) => Number(b.current) - Number(a.current) || b.at - a.at)
    .map(({ at: _, ...row }) => row);

/**
 * Amplify keeps a browser's device under the pool's user name (a UUID here, the e-mail being an alias) but looks it
 * up under the name typed at sign-in, so a remembered browser would never be found and the code always asked
 * (amplify-js #7615). The browser therefore remembers which user name an address signs in as, once remembered.
 */
const SIGN_IN_NAMES_KEY = 'ddp.sign-in-names';

const readNames = (storage: Storage): Record<string, string> => {
  try {
    const names: unknown = JSON.parse(storage.getItem(SIGN_IN_NAMES_KEY) ?? '{}');
    return names && typeof names === 'object' ? (names as Record<string, string>) : {};
  } catch {
    return {};
  }
};

const writeNames = (storage: Storage, names: Record<string, string>) => {
  try {
    storage.setItem(SIGN_IN_NAMES_KEY, JSON.stringify(names));
  } catch {
    // Without storage the browser is asked for the code as if it were not remembered.
  }
};

/** The name to sign in with for what was typed: the pool's user name once this browser is remembered for it. */
export const signInNameFor = (typed: string, storage: Storage = localStorage): string =>
  readNames(storage)[typed.trim().toLowerCase()] ?? typed.trim();

export const rememberSignInName = (email: string, username: string, storage: Storage = localStorage) =>
  writeNames(storage, { ...readNames(storage), [email.trim().toLowerCase()]: username });

/** Forgets every address that signed in as `username` (the browser was forgotten, or the name no longer works). */
export const forgetSignInName = (username: string, storage: Storage = localStorage) =>
  writeNames(storage, Object.fromEntries(Object.entries(readNames(storage)).filter(([, name]) => name !== username)));
