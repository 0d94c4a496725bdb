/** A time in the reader's locale, machine-readable for assistive tech. */
export const When = ({ ms, testId }: { ms: number | undefined; testId?: string }) =>
  ms === undefined ? (
    <span className="muted">—</span>
  ) : (
    <time dateTime={new Date(ms).toISOString()} data-testid={testId}>
      {new Date(ms).toLocaleString()}
    </time>
  );
