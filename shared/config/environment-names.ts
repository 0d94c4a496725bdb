/**
 * The environments the platform runs as (infra/definitions/environments.ts gives each its settings): `local` is the
 * home without a cloud that `npm start` runs, on emulators; every other is an AWS environment deployed with
 * `cdk deploy`. A function learns its environment's name from ENV_NAME.
 */
export const ENVIRONMENTS = ['local', 'dev', 'dev-1', 'dev-2', 'preview', 'prod'] as const;
export type EnvName = (typeof ENVIRONMENTS)[number];

export const isEnvName = (name: string): name is EnvName => (ENVIRONMENTS as readonly string[]).includes(name);

/** The environment of the home without a cloud (`npm start`): no identity pool, the local MQTT broker. */
export const LOCAL_ENV_NAME: EnvName = 'local';
