import type { CommonDeps } from '../deps';

/** The live part's dependencies, built from the area's common ones. */
export const createLiveDeps = (_common: CommonDeps) => ({});
