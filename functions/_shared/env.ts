/**
 * The env reader: the one module of functions/ that reads `process.env` (Biome's noProcessEnv holds the rest). Each
 * variable is read through one of these, once, at cold start, and checked: a missing or malformed value stops the
 * cold start with the variable's name instead of reaching an AWS call. What an unset variable means is said here,
 * by the reader it goes through: required (readEnv), a declared default (readEnvOr, readChoiceEnv, readFlagEnv,
 * readWholeNumberEnv), an empty list (readListEnv), exactly one of two (readOneOfEnv), or, for the AWS SDK's own
 * standard variables only, absent as the SDK means it (readOptionalEnv). No code tests whether a variable happens to
 * be set.
 *
 * One read stays outside: `process.env.TRACE_SDK_CALLS` in functions/_shared/tracing.ts is no read at run time. The
 * bundler replaces that literal expression with the environment's setting (docs/decisions/045-sdk-tracing-per-
 * environment.md) so that a bundle built without tracing drops the X-Ray SDK; a call through a reader here would keep
 * it in every bundle.
 *
 * Every reader takes the variables as its last argument (a test passes its own); functions pass it on, never
 * `process.env` itself.
 */
export type EnvSource = Readonly<Record<string, string | undefined>>;

/**
 * Reads the named environment variables once. Throws at cold start, naming every missing one,
 * rather than letting `undefined` reach an AWS call.
 */
export const readEnv = <const K extends string>(
  names: Record<K, string>,
  env: EnvSource = process.env,
): Record<K, string> => {
  const missing = Object.values<string>(names).filter((name) => !env[name]);
  if (missing.length > 0) throw new Error(`Missing environment variables: ${missing.join(', ')}`);
  return Object.fromEntries(Object.entries<string>(names).map(([key, name]) => [key, env[name]!])) as Record<K, string>;
};

/**
 * A setting every function has in the cloud (the CDK sets it) that the local stack, which runs every area in one
 * process, and a test leave to its default: `POWERTOOLS_SERVICE_NAME` is each function's area in the cloud,
 * `device-data` where they share a process.
 */
export const readEnvOr = (name: string, fallback: string, env: EnvSource = process.env): string =>
  env[name]?.trim() || fallback;

/**
 * One of the AWS SDK's standard variables (AWS_REGION, AWS_ENDPOINT_URL_{SERVICE}, …), whose absence the SDK itself
 * gives a meaning (AWS's own endpoint): read only for functions/_shared/clients.ts, which checks them as the SDK would.
 */
export const readOptionalEnv = (name: string, env: EnvSource = process.env): string | undefined =>
  env[name]?.trim() || undefined;

const splitList = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/**
 * A comma-separated setting that may be absent (an area without a browser client has no CORS origins): trimmed,
 * empty entries dropped, unset read as an empty list.
 */
export const readListEnv = (name: string, env: EnvSource = process.env): string[] => splitList(env[name]);

/**
 * A setting with a fixed set of values and a default when unset. Any other value stops the cold start, naming the
 * choices, instead of quietly meaning the default (`LOG_LEVEL=WARN` once logged at info). Case does not matter.
 */
export const readChoiceEnv = <const C extends string>(
  name: string,
  choices: readonly C[],
  fallback: C,
  env: EnvSource = process.env,
): C => {
  const value = env[name]?.trim().toLowerCase();
  if (!value) return fallback;
  const choice = choices.find((candidate) => candidate === value);
  if (!choice) throw new Error(`${name} is "${env[name]}": use one of ${choices.join(', ')}`);
  return choice;
};

/** `true` or `false` (any case), false when unset; anything else (`yes`, `1`) stops the cold start. */
export const readFlagEnv = (name: string, env: EnvSource = process.env): boolean =>
  readChoiceEnv(name, ['true', 'false'], 'false', env) === 'true';

/** A whole number of at least 0 (a duration in ms), the default when unset. */
export const readWholeNumberEnv = (name: string, fallback: number, env: EnvSource = process.env): number => {
  const value = env[name]?.trim();
  if (!value) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw new Error(`${name} must be a whole number: ${env[name]}`);
  return number;
};

/**
 * Exactly one of two variables, as `{ [key]: value }` of the one set: a secret given itself (only the local stack
 * does) or named by its Secrets Manager ARN (the CDK). Neither or both stop the cold start.
 */
export const readOneOfEnv = <const K extends string>(
  names: Record<K, string>,
  env: EnvSource = process.env,
): { [P in K]: Record<P, string> }[K] => {
  const all = Object.values<string>(names);
  const set = Object.entries<string>(names).filter(([, name]) => env[name]);
  if (set.length > 1) throw new Error(`Set one of ${all.join(' and ')}, not both`);
  const [found] = set;
  if (!found) throw new Error(`Missing environment variables: ${all.join(' or ')}`);
  const [key, name] = found;
  return { [key]: env[name]! } as { [P in K]: Record<P, string> }[K];
};

/** The token verifier's settings, shared by every HTTP area. */
export const readAuthEnv = (env: EnvSource = process.env) => {
  const { issuer, clientIds } = readEnv({ issuer: 'AUTH_ISSUER', clientIds: 'AUTH_CLIENT_IDS' }, env);
  return { issuer, clientIds: splitList(clientIds) };
};
