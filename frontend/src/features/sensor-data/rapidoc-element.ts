// RapiDoc defines the <rapi-doc> element when loaded. A module of its own, imported only by the reference page, so
// its chunk is named (and budgeted) by this file (test/support/web-budgets.ts).
import 'rapidoc';

export const RAPIDOC_TAG = 'rapi-doc';
