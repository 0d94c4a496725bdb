import { ObjectPage } from '../relations/object-page';

/** `/dashboard/devices/:id`: a placeholder until the devices area's own page; for now its members. */
export const DevicePage = () => <ObjectPage kind="device" />;
