import { useLayoutEffect, useRef, useState } from 'react';

/** The chart canvas follows its container's width; the API buckets to it (one bucket per pixel). */
export const useWidth = () => {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setWidth(Math.max(200, Math.min(2000, Math.floor(element.clientWidth))));
    measure();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Debounced: a resize redraws the charts only once the window settles (and fetches again only then).
    const observer = new ResizeObserver(() => {
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
