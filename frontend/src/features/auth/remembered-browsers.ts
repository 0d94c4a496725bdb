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
  /** What a person recognises ("Firefox on Windows"); `detail` is the name the browser gave itself. */
  name: string;
  detail?: string;
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

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\bFirefox\//, 'Firefox'],
  [/\bChromium\//, 'Chromium'],
  [/\b(Chrome|CriOS)\//, 'Chrome'],
  [/\bSafari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone|iPad|iOS/, 'iOS'],
  [/CrOS|Chrome OS/, 'ChromeOS'],
  [/Mac ?OS|Macintosh/, 'macOS'],
  [/Windows/, 'Windows'],
  [/Linux|X11/, 'Linux'],
];

/**
 * The name a person recognises from the one the browser gave itself (Amplify sends its user agent, e.g. "Linux x86
 * Linux Not:A-Brand/8.0.0.0;Chromium/156.0…"): "Chromium on Linux". Unrecognised names are shown shortened.
 */
export const friendlyBrowserName = (raw: string): string => {
  // A name without product/version tokens was given by a person or an app, not read off a user agent.
  if (!raw.includes('/')) return raw.length > 60 ? `${raw.slice(0, 59)}…` : raw;
  const browser = BROWSERS.find(([pattern]) => pattern.test(raw))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(raw))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? `${raw.slice(0, 59)}…`;
};

const when = (date: Date) => date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The account page's rows: this browser first, then the most recently used. */
export const browserRows = (devices: readonly FetchedDevice[], currentKey: string | undefined): BrowserRow[] =>
  devices
    .map((device) => {
      const last = device.lastAuthenticatedDate ?? device.lastModifiedDate ?? device.createDate;
      const ip = device.attributes?.last_ip_used;
      const raw = device.name || device.attributes?.device_name;
      return {
        id: device.id,
        name: raw ? friendlyBrowserName(raw) : BROWSER_MESSAGES.unnamed,
        ...(raw ? { detail: raw } : {}),
        current: device.id === currentKey,
        remembered: device.attributes?.device_status === 'remembered',
        lastUsed: `${last ? `Last used ${when(last)}` : 'Never used'}${ip ? ` from ${ip}` : ''}`,
        at: last?.getTime() ?? 0,
      };
    })
    .sort((a, b) => Number(b.current) - Number(a.current) || b.at - a.at)
    .map(({ at: _, ...row }) => row);

/**
 * Amplify keeps a browser's device under the name its sign-in ended with (the pool's user name, a UUID with the
 * e-mail as an alias, once a challenge was answered; the typed address otherwise) but looks it up under the name
 * typed at the next sign-in, so a remembered browser could go unfound and the code be asked every time
 * (amplify-js #7615). The browser therefore keeps, per address, the name its remembered device is under.
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

/** This browser was forgotten for the address: sign in with what is typed again. */
export const forgetSignInName = (email: string, storage: Storage = localStorage) => {
  const { [email.trim().toLowerCase()]: _, ...rest } = readNames(storage);
  writeNames(storage, rest);
};
