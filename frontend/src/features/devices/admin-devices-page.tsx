import { useState } from 'react';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common';
import type { ProductLine } from '../../../../shared/contracts/devices';
import { PagedList } from '../../components/paged-list';
import { ChoiceField } from '../../lib/form-fields';
import { useRoutePages } from '../../lib/query';
import { DeviceMapSection } from '../map';
import { PRODUCT_LINE_OPTIONS } from './device-rules';
import { DeviceTable } from './device-table';
import { RegisterDeviceForm } from './register-device-form';

type LineFilter = ProductLine | 'all';
const FILTER_OPTIONS: readonly (readonly [LineFilter, string])[] = [
  ['all', 'All product lines'],
  ...PRODUCT_LINE_OPTIONS,
];

/** `/admin/devices`: every device (staff), filtered by product line, registration, and the map of all. */
export const AdminDevicesPage = () => {
  const [line, setLine] = useState<LineFilter>('all');
  const list = useRoutePages('devices', 'listAll', {
    query: { limit: DEFAULT_PAGE_SIZE, ...(line === 'all' ? {} : { productLine: line }) },
  });

  return (
    <section className="page">
      <h1>Devices</h1>
      <RegisterDeviceForm />
      <DeviceMapSection scope="all" title="Map of every device with a location" />
      <section className="card section-card" aria-labelledby="all-devices-heading">
        <h2 id="all-devices-heading">Every device</h2>
        <ChoiceField
          id="admin-devices-line"
          label="Product line"
          value={line}
          options={FILTER_OPTIONS}
          onChange={setLine}
        />
        <PagedList list={list} name="admin-devices" loadingText="Loading devices…" empty="No devices.">
          <DeviceTable devices={list.items} base="/admin" testId="admin-devices" />
        </PagedList>
      </section>
    </section>
  );
};
