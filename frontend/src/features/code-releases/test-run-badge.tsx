import { testRunLook } from '../../../../shared/code-releases/test-run-status';

const GLYPHS = { check: '✓', cross: '✕', clock: '◷', question: '?' } as const;

/** Spec §4: a test run's status with its colour (green, red, orange) and an icon, beside its word. */
export const TestRunBadge = ({ status, testId }: { status: string; testId?: string }) => {
  const look = testRunLook(status);
  return (
    <span
      className={`badge test-run-badge test-run-${look.colour}`}
      data-testid={testId}
      data-status={status}
      data-icon={look.icon}
    >
      <span aria-hidden="true" className="test-run-glyph">
        {GLYPHS[look.icon]}
      </span>{' '}
      {look.label}
    </span>
  );
};
