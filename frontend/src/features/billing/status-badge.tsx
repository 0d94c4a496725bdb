import { statusLook } from '../../../../shared/billing/subscription-status';

/** A glyph per icon name, so the badge says its status without colour too (beside the word). */
const GLYPHS = {
  check: '✓',
  clock: '◷',
  alert: '!',
  cross: '✕',
  pause: '⏸',
  hourglass: '⧗',
  question: '?',
} as const;

/** A subscription status as spec §4 shows it: its label, its colour token and its icon. */
export const SubscriptionBadge = ({ status, testId }: { status: string; testId?: string }) => {
  const look = statusLook(status);
  return (
    <span
      className={`badge subscription-badge subscription-${look.colour}`}
      data-testid={testId}
      data-status={status}
      data-icon={look.icon}
    >
      <span aria-hidden="true" className="subscription-glyph">
        {GLYPHS[look.icon]}
      </span>{' '}
      {look.label}
    </span>
  );
};
