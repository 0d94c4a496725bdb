import type { CommonDeps } from '../deps';

/** The exports part's dependencies, built from the area's common ones. */
export const createExportsDeps = (_common: CommonDeps) => ({});
