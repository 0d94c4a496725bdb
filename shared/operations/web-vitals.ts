/**
 * The Core Web Vitals real-user monitoring reports (docs/decisions/040-real-user-monitoring.md): the RUM web client's
 * event type for each, and the metric CloudWatch RUM publishes it as in `AWS/RUM`. The app monitor sends each per
 * route too (dimension `PageId`), the dashboard draws them, and the local collector sums them up by the same names.
 */
export const WEB_VITALS = [
  {
    name: 'LCP',
    metric: 'WebVitalsLargestContentfulPaint',
    eventType: 'com.amazon.rum.largest_contentful_paint_event',
    unit: 'Milliseconds',
  },
  {
    name: 'CLS',
    metric: 'WebVitalsCumulativeLayoutShift',
    eventType: 'com.amazon.rum.cumulative_layout_shift_event',
    unit: 'None',
  },
  {
    name: 'INP',
    metric: 'WebVitalsInteractionToNextPaint',
    eventType: 'com.amazon.rum.interaction_to_next_paint_event',
    unit: 'Milliseconds',
  },
] as const;

/** The RUM web client's event types the app's own checks read. */
export const RUM_EVENT_TYPES = {
  pageView: 'com.amazon.rum.page_view_event',
  jsError: 'com.amazon.rum.js_error_event',
  navigation: 'com.amazon.rum.performance_navigation_event',
} as const;

/** The RUM namespace's dimension for the monitor, and the one for the route. */
export const RUM_DIMENSIONS = { monitor: 'application_name', page: 'PageId' } as const;
