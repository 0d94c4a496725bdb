/**
 * What a notification is about. A person chooses per topic whether it also comes by e-mail (banners always
 * come); a `locked` topic cannot be turned off, because it is about the person's own access to the platform.
 */
export const NOTIFICATION_TOPICS = [
  'announcements',
  'roles',
  'devices',
  'organizations',
  'api-quota',
  'billing',
  'integrations',
  'firmware',
  'alerts',
] as const;
export type NotificationTopic = (typeof NOTIFICATION_TOPICS)[number];

export const TOPIC_INFO: Record<NotificationTopic, { label: string; description: string; locked: boolean }> = {
  announcements: {
    label: 'Announcements',
    description: 'News and notices from the platform team.',
    locked: false,
  },
  roles: {
    label: 'Staff roles',
    description: 'Someone was granted or lost the Employees or Administrators role (administrators only).',
    locked: true,
  },
  devices: {
    label: 'Devices',
    description: 'You became, or stopped being, the owner or an administrator of a device.',
    locked: false,
  },
  organizations: {
    label: 'Organizations',
    description: 'A device joined or left an organization you manage.',
    locked: false,
  },
  billing: {
    label: 'Billing',
    description: "A payment for one of your devices' subscriptions failed, or a trial is about to end.",
    locked: true,
  },
  integrations: {
    label: 'Integrations',
    description: 'A webhook of yours was turned off because its receiver kept failing or answered 410 Gone.',
    locked: false,
  },
  firmware: {
    label: 'Firmware',
    description: 'A firmware update to devices you look after was halted, with the devices that failed and why.',
    locked: false,
  },
  alerts: {
    label: 'Alerts',
    description: 'An alert rule on a device you look after fired, resolved, or is still firing.',
    locked: false,
  },
  'api-quota': {
    label: 'API quota',
    description: "A device's public API use reached 70, 90 or 100 % of its month.",
    locked: false,
  },
};
