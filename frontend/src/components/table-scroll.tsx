import { type ReactNode, useEffect, useRef, useState } from 'react';

interface TableScrollProps {
  /** What the table holds ("Devices"), named to screen readers when the region scrolls. */
  label?: string;
  /** Or the id of the heading that names it. */
  labelledBy?: string;
  children: ReactNode;
}

/**
 * The frame every table sits in: a table wider than its card scrolls inside it rather than widening the page
 * (below 640 px app.css turns rows into blocks instead). Only while it does scroll is the frame a named,
 * focusable region, so a keyboard can scroll it (WCAG 2.1.1; axe's scrollable-region-focusable) and a table
 * that fits adds no tab stop.
 */
export const TableScroll = ({ label, labelledBy, children }: TableScrollProps) => {
  const frame = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);

  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth + 1);
    // Measured first by the observer's first report, which comes once the browser has laid the page out, not here:
    // reading the sizes in the effect made the browser lay out the whole page at once, in the task that drew it (the
    // device page's first tables, about 30 ms at Lighthouse's 4× slowdown, decision 109). The frame and the table
    // then change size apart: a resized window, and rows arriving page by page.
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    for (const child of element.children) observer.observe(child);
    return () => observer.disconnect();
  }, []);

  return (
    <div
      ref={frame}
      className="table-wrap"
      data-scrolls={scrolls || undefined}
      {...(scrolls ? { role: 'region', tabIndex: 0, 'aria-label': label, 'aria-labelledby': labelledBy } : {})}
    >
      {children}
    </div>
  );
};
