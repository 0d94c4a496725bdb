import './notifications.css';
import { NavLink } from 'react-router-dom';
import { bellLabel, unreadBadgeText } from './notification-rules';
import { useBarBanners } from './notifications-api';

/** The notifications page, the header's link's. */
export const NOTIFICATIONS_PATH = '/dashboard/notifications';

/**
 * The header's link to the notifications page with the unread count (the bar's query: one read for both). In the
 * entry chunk with the header, so it is kept to a link and a number.
 */
export const NotificationBell = ({ userId }: { userId: string }) => {
  const unread = useBarBanners(userId).data?.unread ?? 0;
  const badge = unreadBadgeText(unread);
  return (
    <NavLink
      to={NOTIFICATIONS_PATH}
      className="nav-notifications"
      data-testid="nav-notifications"
      aria-label={bellLabel(unread)}
    >
      <svg className="bell-icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
        <path d="M5 14V9a5 5 0 0 1 10 0v5l1.5 1.5h-13zM8.5 17.5h3" />
      </svg>
      {/* The space keeps the visible words ("Notifications 2") inside the spoken name (WCAG 2.5.3, axe). */}
      Notifications{' '}
      {badge && (
        <span className="count-badge" data-testid="nav-notifications-unread" aria-hidden="true">
          {badge}
        </span>
      )}
    </NavLink>
  );
};

/**
 * The unread count on the header's Menu button below 1024 px, where the link with its count is folded away: the
 * number to see, and the words for a screen reader (the button reads "Menu, 2 unread notifications").
 */
export const MenuUnread = ({ userId }: { userId: string }) => {
  const unread = useBarBanners(userId).data?.unread ?? 0;
  const badge = unreadBadgeText(unread);
  return badge ? (
    <>
      <span className="count-badge" aria-hidden="true" data-testid="menu-unread">
        {badge}
      </span>
      <span className="visually-hidden">, {badge} unread notifications</span>
    </>
  ) : null;
};
