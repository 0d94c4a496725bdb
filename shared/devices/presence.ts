/**
 * Seen within this long: online. Devices report at least every few minutes; 10 allows two missed reports. The device
 * page's status and the webhooks' device.online and device.offline events use the same window.
 */
export const ONLINE_WINDOW_MS = 10 * 60 * 1000;
