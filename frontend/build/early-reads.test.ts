import { AREAS } from '../../shared/contracts/areas';
import { routeUrl } from '../../shared/contracts/route-url';
import { earlyReadsOf } from '../src/lib/early-read-requests';
import { earlyReadPaths } from './early-reads';

describe("the early reads' route paths, from the contracts at build time (decision 113)", () => {
  it("are each route's path, so an early read's URL is the one the typed client builds", () => {
    const paths = earlyReadPaths();
    expect(paths).toEqual({
      'notifications.listUserNotifications': AREAS.notifications.routes.listUserNotifications.path,
      'users.getUserRecord': AREAS.users.routes.getUserRecord.path,
      'devices.get': AREAS.devices.routes.get.path,
    });
    const urls = earlyReadsOf('/dashboard/devices/demo-device-1', 'u-1').map(({ area, route, request }) =>
      routeUrl(`http://localhost:3000/${area}`, paths[`${area}.${route}`]!, request),
    );
    expect(urls).toEqual([
      'http://localhost:3000/notifications/notificationsByUserId/u-1/50?state=active',
      'http://localhost:3000/users/user-ddb/u-1',
      'http://localhost:3000/devices/devices/demo-device-1',
    ]);
  });
});
