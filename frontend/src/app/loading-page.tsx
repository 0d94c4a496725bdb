export const LoadingPage = () => (
  <div className="loading" role="status" aria-live="polite">
    Loading…
  </div>
);
