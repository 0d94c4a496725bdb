/**
 * "Use this data" (docs/open-data.md): the panel and its rules, for a dataset's landing page as for the device page.
 * A public entry of its own (docs/style.md §9), apart from index.ts, so a dataset's page carries no export panel.
 */
export { fileLines, staLines, staObservationsUrl, staRoot, staThingsUrl } from './open-data-rules';
export { UseThisData } from './use-this-data';
