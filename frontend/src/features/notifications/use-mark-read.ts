import { useEffect, useRef } from 'react';
import type { Notification } from '../../../../shared/contracts/notifications';
import { useApi } from '../../lib/api';
import { useChanges } from '../../lib/query';
import { bannerChangeKeys } from './notifications-api';

/**
 * Opening a notification one received reads it: its banner is marked read once (the e-mails link here). A
 * notification without a banner for the reader (staff looking at one sent to others) is left alone.
 */
export const useMarkReadOnOpen = (notification: Notification | undefined) => {
  const api = useApi('notifications');
  const { run } = useChanges<'read'>();
  const marked = useRef(new Set<string>());
  const id = notification?.id;
  const unread = notification?.banner !== undefined && notification.banner.readAt === undefined;
  useEffect(() => {
    if (!id || !unread || marked.current.has(id)) return;
    marked.current.add(id);
    void run('read', () => api.updateNotification({ params: { id }, body: { read: true } }), bannerChangeKeys(id));
  }, [id, unread, api, run]);
};
