import { useEffect, useRef, useState } from 'react';

/**
 * The chart canvas follows its container's width; the API buckets to it (one bucket per pixel). The first width comes
 * with the observer's first report, once the browser has laid the page out: read in the commit that drew the
 * container, it made the browser work out the whole page's styles and layout inside the task that drew it (the device
 * page's first answer, issue 36). Until then the width is 0, and the charts show their loading line as they do while
 * their readings come.
 */
export const useWidth = () => {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setWidth(Math.max(200, Math.min(2000, Math.floor(element.clientWidth))));
    let measured = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Later reports are debounced: a resize redraws the charts only once the window settles (and fetches again only
    // then).
    const observer = new ResizeObserver(() => {
      if (!measured) {
        measured = true;
        measure();
        return;
      }
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
