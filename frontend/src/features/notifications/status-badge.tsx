import type { NotificationStatus } from '../../../../shared/contracts/notifications';
import { STATUS_TEXT } from './notification-rules';

/** A notification's status as a badge: the word and its colour, never the colour alone. */
export const StatusBadge = ({ status, testId }: { status: NotificationStatus | undefined; testId?: string }) =>
  status ? (
    <span className={`badge badge-${STATUS_TEXT[status].tone}`} data-testid={testId} data-status={status}>
      {STATUS_TEXT[status].text}
    </span>
  ) : null;
