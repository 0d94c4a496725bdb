import { useLayoutEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';

/**
 * The chart canvas follows its container's width; the API buckets to it (one bucket per pixel). The width is read
 * in the ResizeObserver's callbacks, which run once the browser has laid the page out: read in a layout effect, it
 * made the browser lay the page out inside React's commit, in the same long task (issue 36, decision 107). The first
 * reading is applied before the first frame is painted (observed from a layout effect, applied with flushSync), as
 * before, so nothing drawn moves.
 */
export const useWidth = () => {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setWidth(Math.max(200, Math.min(2000, Math.floor(element.clientWidth))));
    let first = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new ResizeObserver(() => {
      if (first) {
        first = false;
        return flushSync(measure);
      }
      // Debounced: a resize redraws the charts only once the window settles (and fetches again only then).
      clearTimeout(timer);
      timer = setTimeout(measure, 250);
    });
    observer.observe(element);
    return () => {
      clearTimeout(timer);
      observer.disconnect();
    };
  }, []);
  return { ref, width };
};
