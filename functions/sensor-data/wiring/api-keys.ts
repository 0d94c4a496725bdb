import type { CommonDeps } from '../deps';

/** The api-keys part's dependencies, built from the area's common ones. */
export const createApiKeysDeps = (_common: CommonDeps) => ({});
