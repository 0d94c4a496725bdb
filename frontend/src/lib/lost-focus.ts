/**
 * Keyboard focus that would otherwise be lost. When the element holding focus leaves the page (a link followed to
 * another route, a button replaced by what it did), the browser drops focus to <body>: a screen reader no longer
 * says where the person is, and their place in the Tab order is a guess (WCAG 2.4.3). Whatever replaces that
 * element takes focus instead; focus held by anything still shown is never taken.
 */

/** The element that last received focus, so a drop to <body> can be told from a page nobody has focused yet. */
let lastFocused: Element | null = null;
if (typeof document !== 'undefined') {
  document.addEventListener('focusin', (event) => {
    lastFocused = event.target as Element;
  });
}

/** In the document and rendered (a closed menu's links are in the document but hidden). */
const shown = (element: Element) => element.isConnected && (element as HTMLElement).checkVisibility?.() !== false;

/** Something had focus, it is gone or hidden now, and nothing shown holds focus instead. */
const focusLost = () => {
  const active = document.activeElement;
  const nowhere = !active || active === document.body || !shown(active);
  return nowhere && lastFocused !== null && !shown(lastFocused);
};

/** Gives `element` the focus when focus was lost; leaves focus where it is otherwise. */
export const takeLostFocus = (element: HTMLElement | null) => {
  if (element && focusLost()) element.focus({ preventScroll: true });
};
