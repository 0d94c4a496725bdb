import { useMemo, useSyncExternalStore } from 'react';

/**
 * The design tokens as canvas code needs them: uPlot and MapLibre paint pixels, which CSS cannot restyle, so
 * they read the custom properties of app/tokens.css when they draw and draw again when the scheme changes.
 */

const DARK = '(prefers-color-scheme: dark)';

const subscribe = (changed: () => void) => {
  const query = window.matchMedia(DARK);
  query.addEventListener('change', changed);
  return () => query.removeEventListener('change', changed);
};

/** The colour scheme the page is drawn in now; a component using it renders again when the OS switches. */
export const useColorScheme = (): 'light' | 'dark' =>
  useSyncExternalStore(
    subscribe,
    () => (window.matchMedia(DARK).matches ? 'dark' : 'light'),
    () => 'light',
  );

/**
 * The tokens read so far in the scheme shown now. The custom properties of app/tokens.css change only with the
 * scheme, and each read of a computed style after the page changed makes the browser work out its styles again:
 * a device page's five charts, drawn while the page fills in, spent about 125 ms of a phone's main thread on that.
 */
let known: { scheme: 'light' | 'dark'; values: Map<string, string> } | undefined;

/** One token's value now (e.g. `--chart-line`), or `fallback` when no stylesheet sets it. */
export const readToken = (name: `--${string}`, fallback: string): string => {
  const scheme = window.matchMedia(DARK).matches ? 'dark' : 'light';
  if (known?.scheme !== scheme) known = { scheme, values: new Map() };
  let value = known.values.get(name);
  if (value === undefined) {
    value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
    known.values.set(name, value);
  }
  return value || fallback;
};

/** Calls `changed` whenever the OS switches between light and dark; returns the unsubscribe. */
export const onColorSchemeChange = (changed: () => void): (() => void) => subscribe(changed);

export interface Tokens {
  scheme: 'light' | 'dark';
  /** One token's value now (e.g. `--chart-line`), or `fallback` when no stylesheet sets it. */
  read: (name: `--${string}`, fallback: string) => string;
}

/** The tokens of the scheme shown now: a new object when the scheme changes, so effects using it draw again. */
export const useTokens = (): Tokens => {
  const scheme = useColorScheme();
  return useMemo(() => ({ scheme, read: readToken }), [scheme]);
};
