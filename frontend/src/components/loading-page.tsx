/** What a page shows while what it needs is on its way: the app's shell and the pages of features alike. */
export const LoadingPage = () => (
  <div className="loading" role="status" aria-live="polite">
    Loading…
  </div>
);
