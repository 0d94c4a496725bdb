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

/** The token verifier's settings, shared by every HTTP area. */
export const readAuthEnv = (env: Record<string, string | undefined> = process.env) => {
  const { issuer, clientIds } = readEnv({ issuer: 'AUTH_ISSUER', clientIds: 'AUTH_CLIENT_IDS' }, env);
  return {
    issuer,
    clientIds: clientIds
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean),
  };
};
