/**
 * Reads the named environment variables once. Throws at cold start, naming every missing one,
 * rather than letting `undefined` reach an AWS call.
 */
export const readEnv = <const K extends string>(
  names: Record<K, string>,
  env: Record<string, string | undefined> = process.env,
): Record<K, string> => {
  const missing = Object.values<string>(names).filter((name) => !env[name]);
  if (missing.length > 0) throw new Error(`Missing environment variables: ${missing.join(', ')}`);
  return Object.fromEntries(Object.entries<string>(names).map(([key, name]) => [key, env[name]!])) as Record<K, string>;
};

const splitList = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/**
 * A comma-separated setting that may be absent (an area without a browser client has no CORS origins): trimmed,
 * empty entries dropped, unset read as an empty list.
 */
export const readListEnv = (name: string, env: Record<string, string | undefined> = process.env): string[] =>
  splitList(env[name]);

/**
 * A setting with a fixed set of values and a default when unset. Any other value stops the cold start, naming the
 * choices, instead of quietly meaning the default (`LOG_LEVEL=WARN` once logged at info). Case does not matter.
 */
export const readChoiceEnv = <const C extends string>(
  name: string,
  choices: readonly C[],
  fallback: C,
  env: Record<string, string | undefined> = process.env,
): C => {
  const value = env[name]?.trim().toLowerCase();
  if (!value) return fallback;
  const choice = choices.find((candidate) => candidate === value);
  if (!choice) throw new Error(`${name} is "${env[name]}": use one of ${choices.join(', ')}`);
  return choice;
};

/** The token verifier's settings, shared by every HTTP area. */
export const readAuthEnv = (env: Record<string, string | undefined> = process.env) => {
  const { issuer, clientIds } = readEnv({ issuer: 'AUTH_ISSUER', clientIds: 'AUTH_CLIENT_IDS' }, env);
  return { issuer, clientIds: splitList(clientIds) };
};

/** A whole number of at least 0 (a duration in ms), the default when unset. */
export const readWholeNumberEnv = (
  name: string,
  fallback: number,
  env: Record<string, string | undefined> = process.env,
): number => {
  const value = env[name]?.trim();
  if (!value) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw new Error(`${name} must be a whole number: ${env[name]}`);
  return number;
};
