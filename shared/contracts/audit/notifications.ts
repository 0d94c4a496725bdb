import { defineAudit, notAudited } from '../define-audit';
import type { notifications } from '../notifications';

const notificationInPath = { kind: 'notification', id: ({ params }: { params: { id: string } }) => params.id } as const;

/** Notifications composed, sent, edited and deleted by staff (docs/audit.md). */
export const notificationsAudit = /* @__PURE__ */ defineAudit<typeof notifications>({
  createNotification: {
    action: 'notification.create',
    label: 'Wrote a notification (draft)',
    target: { kind: 'notification', id: (_request, notification) => notification?.id },
  },
  queueNotification: {
    action: 'notification.send',
    label: 'Sent a notification',
    target: { kind: 'notification', id: ({ body }, notification) => notification?.id ?? body.id },
  },
  listNotifications: notAudited('a read with a body'),
  updateNotification: {
    action: 'notification.update',
    label: "Changed a notification's draft",
    target: notificationInPath,
    // Marking one's own banner read or dismissed is everyone's, staff's too.
    own: ({ body }) => Object.keys(body).every((field) => field === 'read' || field === 'dismissed'),
  },
  deleteNotification: {
    action: 'notification.delete',
    label: 'Deleted a notification (or dismissed its banner)',
    target: notificationInPath,
  },
  previewAudience: notAudited('counts an audience; changes nothing'),
  listDeliveries: notAudited('a read'),
  updatePreferences: notAudited("the caller's own e-mail choices"),
  unsubscribe: notAudited("a one-click unsubscribe by its link's token: the person's own choice"),
});
