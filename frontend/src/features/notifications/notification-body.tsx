import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { NOTIFICATION_ICONS } from '../../../../shared/contracts/notifications';
import { inAppPath } from './notification-rules';

/**
 * A notification's body: HTML the API sanitized on the way in (links and basic formatting only), so it is drawn as
 * HTML. A link to a path of this app navigates inside it, keeping the session's cache, instead of reloading.
 */
export const NotificationBody = ({ html, testId }: { html: string; testId?: string }) => {
  const navigate = useNavigate();
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const link = (event.target as Element).closest('a');
    if (!link) return;
    const path = inAppPath(link.getAttribute('href'), event, link.getAttribute('target'));
    if (!path) return;
    event.preventDefault();
    navigate(path);
  };
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the links inside are the controls; Enter on a link is a click
    // biome-ignore lint/a11y/noStaticElementInteractions: the handler only routes the links' own clicks
    <div
      className="notification-body"
      data-testid={testId}
      onClick={onClick}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the API sanitizes bodies on the way in (docs/notifications.md)
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
};

const ICON_WORDS: Record<(typeof NOTIFICATION_ICONS)[number], string> = {
  info: 'Information',
  warning: 'Warning',
  success: 'Success',
  error: 'Problem',
};

const ICON_PATHS: Record<(typeof NOTIFICATION_ICONS)[number], string> = {
  info: 'M10 9v5M10 6.2v.1',
  warning: 'M10 7v4M10 13.7v.1',
  success: 'M6.5 10.2l2.4 2.4 4.6-4.8',
  error: 'M7.5 7.5l5 5M12.5 7.5l-5 5',
};

/** The notification's icon, drawn inline (no icon font to load), named in words for screen readers. */
export const NotificationIcon = ({ icon }: { icon: (typeof NOTIFICATION_ICONS)[number] }) => (
  <svg
    className={`notification-icon notification-icon-${icon}`}
    viewBox="0 0 20 20"
    role="img"
    aria-label={ICON_WORDS[icon]}
    focusable="false"
  >
    {icon === 'warning' ? (
      <path className="icon-frame" d="M10 2.5l8 14.5H2z" />
    ) : (
      <circle className="icon-frame" cx="10" cy="10" r="8" />
    )}
    <path d={ICON_PATHS[icon]} />
  </svg>
);

/** A time in the reader's locale, machine-readable for assistive tech. */
export const At = ({ ms, testId }: { ms: number | undefined; testId?: string }) =>
  ms === undefined ? (
    <span className="muted">—</span>
  ) : (
    <time dateTime={new Date(ms).toISOString()} data-testid={testId}>
      {new Date(ms).toLocaleString()}
    </time>
  );
