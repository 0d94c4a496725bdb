// RapiDoc defines the <rapi-doc> element when loaded. A module of its own, imported only by the reference page (and
// preloaded by its route, beside the page's code), so its chunk is named (and budgeted) by this file
// (test/support/web-budgets.ts).
import 'rapidoc';

export const RAPIDOC_TAG = 'rapi-doc';

/**
 * Once RapiDoc has drawn the document, what it draws that no setting turns off and the page must not have (issue 36,
 * decision 024): a second main landmark (the app's layout has the page's `<main>`; RapiDoc's becomes a region of it,
 * named), and code blocks whose long URLs would scroll sideways inside a box no keyboard can reach (they wrap).
 */
export const fitIntoPage = async (element: HTMLElement & { updateComplete?: Promise<unknown> }) => {
  await element.updateComplete;
  const root = element.shadowRoot;
  if (!root) return;
  for (const main of root.querySelectorAll('main')) {
    main.setAttribute('role', 'region');
    main.setAttribute('aria-label', 'Reference');
  }
  // Added after lit's own sheets, so it wins over them; a constructed sheet, which the CSP allows as it does lit's.
  // Prism's `white-space: pre` and `word-wrap: normal` on highlighted code (a class selector, more specific) would
  // keep a long line from wrapping: important, to win over them.
  const sheet = new CSSStyleSheet();
  sheet.replaceSync('pre, pre code { white-space: pre-wrap !important; overflow-wrap: anywhere !important; }');
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
};
