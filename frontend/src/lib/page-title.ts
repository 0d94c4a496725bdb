import { useEffect } from 'react';

/** The app's name: the browser tab's title on its own, and the end of every page's title. */
export const APP_NAME = 'Device Data Platform';

/**
 * The tab's title of a page headed `heading`: the heading first, since tabs, bookmarks and the history list cut
 * titles from the end; the admin area says so, as its pages share headings with the dashboard's ("Devices").
 */
export const pageTitle = (heading: string | null | undefined, admin = false): string => {
  const text = heading?.replace(/\s+/g, ' ').trim();
  const parts = [text && text !== APP_NAME ? text : undefined, admin ? 'Admin' : undefined, APP_NAME];
  return parts.filter(Boolean).join(' · ');
};

/**
 * What of a heading goes into the title: the page's own `data-page-title` where the heading is the app's name
 * (the login page), else its words without a status badge or an icon beside them ("Rooftop station", not
 * "Rooftop stationOffline").
 */
const headingWords = (heading: HTMLElement): string => {
  if (heading.dataset.pageTitle) return heading.dataset.pageTitle;
  const copy = heading.cloneNode(true) as HTMLElement;
  for (const beside of copy.querySelectorAll('.badge, svg, [aria-hidden="true"]')) beside.remove();
  return copy.textContent ?? '';
};

/**
 * Keeps the browser tab's title on the shown page's main heading (WCAG 2.4.2, Page Titled): people tell tabs,
 * bookmarks and history entries apart by it, and a screen reader reads it on each navigation. It follows the `<h1>`
 * rather than a title declared per route, so a device's or a dataset's name shows once it is read, the title never
 * says other than the page, and no page can leave it out.
 */
export const useTitleFromHeading = (pathname: string): void => {
  useEffect(() => {
    const admin = pathname === '/admin' || pathname.startsWith('/admin/');
    let seen: string | undefined;
    const follow = () => {
      const heading = document.querySelector('h1');
      // Most changes on a page (charts, live values) leave its heading alone: compared before anything is copied.
      const key = heading ? `${heading.dataset.pageTitle ?? ''}\u0000${heading.textContent ?? ''}` : '';
      if (key === seen) return;
      seen = key;
      document.title = pageTitle(heading ? headingWords(heading) : undefined, admin);
    };
    follow();
    const observer = new MutationObserver(follow);
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, [pathname]);
};
