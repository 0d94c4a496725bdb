/**
 * The reads a signed-in person's page is drawn with, named by area and route with their requests: its shell's (the
 * banner bar and the bell, the cart's count) and, on a device page, its device. The screens' queries build their
 * requests here, and the early reads (src/early-reads.ts) ask for the same ones before the app's code has arrived
 * (decision 113). No zod and no React: the early reads' chunk carries this module.
 */

/** The page size of the bar's read: enough that "+N more" counts what is there. */
export const BAR_PAGE_SIZE = 50;

export interface EarlyRead {
  area: string;
  route: string;
  request: { params: Record<string, string | number>; query?: Record<string, string> };
}

/** The person's banners still on the bar: the banner bar's and the bell's one read. */
export const barRead = (userId: string) =>
  ({
    area: 'notifications',
    route: 'listUserNotifications',
    request: { params: { id: userId, x: BAR_PAGE_SIZE }, query: { state: 'active' } },
  }) as const satisfies EarlyRead;

/** The person's record: the cart's count in the header. */
export const recordRead = (userId: string) =>
  ({ area: 'users', route: 'getUserRecord', request: { params: { id: userId } } }) as const satisfies EarlyRead;

/** A device page's device. */
export const devicePageRead = (id: string) =>
  ({ area: 'devices', route: 'get', request: { params: { id } } }) as const satisfies EarlyRead;

/** Every route an early read may take, for the build to look up its path (frontend/build/early-reads.ts). */
export const EARLY_READ_ROUTES = [barRead(''), recordRead(''), devicePageRead('')].map(({ area, route }) => ({
  area,
  route,
}));

/** The device page's routes (the router's `/dashboard/devices/:id` and `/admin/devices/:id`). */
const DEVICE_PAGE = /^\/(?:dashboard|admin)\/devices\/([^/]+)\/?$/;

/** A path segment as the router hands it to the page (decoded), or as it is when it is not valid percent-encoding. */
const decoded = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** The reads the page at `pathname` is drawn with, for the signed-in person `userId`. */
export const earlyReadsOf = (pathname: string, userId: string): EarlyRead[] => {
  const device = DEVICE_PAGE.exec(pathname)?.[1];
  return [barRead(userId), recordRead(userId), ...(device ? [devicePageRead(decoded(device))] : [])];
};
