/**
 * The app's phone breakpoint in script (app/app.css and docs/frontend-layout.md: at 640 px and below the layout is a
 * phone's), for what a stylesheet cannot decide: a coarse pointer (a tablet's finger) counts as a phone too, since
 * what a phone's width asks of the page (less work on a slow main thread, touch targets) holds for it as well.
 */
export const PHONE_QUERY = '(max-width: 640px), (pointer: coarse)';

/** Whether the page is drawn for a phone now (asked when a component first renders, not followed as it changes). */
export const isPhone = (): boolean => typeof window.matchMedia === 'function' && window.matchMedia(PHONE_QUERY).matches;
