import { fromEnv } from '@aws-sdk/credential-provider-env';

/**
 * What the Lambda bundles use in place of the SDK's default credential chain (`@aws-sdk/credential-provider-node`,
 * swapped in by infra/services/lambda-bundling.ts). Lambda hands every function its role's credentials in the
 * environment, which is the chain's first source anyway; its other sources (profiles, SSO, STS web identity, external
 * processes, instance metadata) are about 130 KB of every bundle that a function never runs
 * (docs/decisions/029-small-lambdas.md). Code run unbundled (tests, `npm start`) keeps the SDK's own chain.
 */
export const defaultProvider = (init?: Parameters<typeof fromEnv>[0]) => fromEnv(init);
