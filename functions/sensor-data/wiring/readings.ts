import type { CommonDeps } from '../deps';

/** The readings part's dependencies, built from the area's common ones. */
export const createReadingsDeps = (_common: CommonDeps) => ({});
