import { type StatusLook, statusLook } from '../../../../shared/billing/subscription-status';

/**
 * A glyph per icon name, so the badge says its status without colour too (beside the word). Each has a text
 * presentation only (no emoji font draws it in its own colours), so it takes the badge's colour in both themes.
 */
export const STATUS_GLYPHS: Record<StatusLook['icon'], string> = {
  check: '✓',
  hourglass: '⧗',
  clock: '◷',
  alert: '!',
  minus: '⊖',
  cross: '✕',
  ban: '⊘',
  pause: '‖',
  question: '?',
};

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
        {STATUS_GLYPHS[look.icon]}
      </span>{' '}
      {look.label}
    </span>
  );
};
