import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { isStaff } from '../../../../shared/auth/groups';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common';
import type { Dataset } from '../../../../shared/contracts/datasets';
import { DATASET_LICENSES, LICENSE_TITLES } from '../../../../shared/datasets/dataset-rules';
import { EditForm } from '../../components/edit-form';
import { ErrorAlert } from '../../components/form-parts';
import { ObjectPicker } from '../../components/object-picker';
import { listItem, PagedList } from '../../components/paged-list';
import { usePickableObjects } from '../../components/use-pickable-objects';
import { useApi } from '../../lib/api';
import { errorMessage } from '../../lib/error-message';
import { ChoiceField, TextField } from '../../lib/form-fields';
import { useRoutePages } from '../../lib/query';
import { useSignedInUser } from '../../lib/session';
import { useCheckedSubmit } from '../../lib/use-checked-submit';
import { datasetListKeys, useDataset } from './dataset-api';
import { type DatasetForm, emptyForm, formFrom, requestOf } from './dataset-form';
import './datasets.css';

/**
 * `/dashboard/datasets/new`: build a dataset of one's devices or of a campaign one manages. `?campaignId=` starts from
 * that campaign (the campaign page's "Make a dataset of this campaign"); `?previousVersionId=` from that dataset, as
 * its next version.
 */
export const DatasetNewPage = () => {
  const [params] = useSearchParams();
  const previousId = params.get('previousVersionId') ?? undefined;
  const campaignId = params.get('campaignId') ?? undefined;
  const previous = useDataset(previousId);
  if (previousId) {
    if (previous.error) return <ErrorAlert testId="dataset-new-error" error={errorMessage(previous.error)} />;
    if (!previous.data) return <p className="muted">Loading the dataset…</p>;
    return <DatasetBuildForm key={previousId} initial={formFrom(previous.data)} previous={previous.data} />;
  }
  const initial = campaignId ? { ...emptyForm(), sourceKind: 'campaign' as const, campaignId } : emptyForm();
  return <DatasetBuildForm key={campaignId ?? 'new'} initial={initial} />;
};

const DatasetBuildForm = ({ initial, previous }: { initial: DatasetForm; previous?: Dataset }) => {
  const datasets = useApi('datasets');
  const navigate = useNavigate();
  const [form, setForm] = useState(initial);
  const staff = isStaff(useSignedInUser().groups);
  // The person's devices a page at a time (the dashboard's list, and its cache): a person with more than a page loads
  // more here, so every device they hold can be chosen.
  const devices = useRoutePages('devices', 'listMine', { query: { limit: DEFAULT_PAGE_SIZE } });
  // Staff may build a dataset of any device (the API checks each, as for anyone): theirs, and any other by name or id.
  const platform = usePickableObjects(staff ? 'device' : undefined);
  const [adding, setAdding] = useState('');
  // The campaigns the person manages, a page at a time: only those, so the choice never misses one however many
  // campaigns they take part in.
  const managedPages = useRoutePages('campaigns', 'listMine', {
    query: { limit: DEFAULT_PAGE_SIZE, role: 'campaign-manager' },
  });
  const managed = managedPages.items;
  const set = <K extends keyof DatasetForm>(key: K, value: DatasetForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  const build = useCheckedSubmit(
    () => requestOf(form),
    async (body) => {
      const made = await datasets.createDataset({ body });
      navigate(`/dashboard/datasets/${made.id}`);
      return undefined;
    },
    datasetListKeys,
  );

  const toggleDevice = (id: string, on: boolean) =>
    set(
      'deviceIds',
      on ? [...form.deviceIds.filter((chosen) => chosen !== id), id] : form.deviceIds.filter((chosen) => chosen !== id),
    );
  // The person's devices, then those staff added that are not theirs (named where the platform's list names them).
  const mine = devices.items;
  const added = form.deviceIds
    .filter((id) => !mine.some((device) => device.id === id))
    .map((id) => ({ id, name: platform?.options.find((option) => option.id === id)?.name ?? '' }));
  const choices = [...mine, ...added];

  return (
    <section className="page">
      <h1>{previous ? `New version of ${previous.title}` : 'Build a dataset'}</h1>
      <p className="muted">
        The dataset is frozen when it is built: each device's rows are cut to the download window its tier gives the
        dataset's readers now, and never change after. Building runs in the background; its page shows the progress.
      </p>
      <EditForm
        name="dataset-form"
        testId="dataset-form"
        long
        form={build}
        submitText="Build the dataset"
        busyText="Starting…"
      >
        <TextField
          id="dataset-title"
          label="Title"
          value={form.title}
          onChange={(v) => set('title', v)}
          error={build.fields.title}
        />
        <TextField
          id="dataset-description"
          label="Description"
          value={form.description}
          onChange={(v) => set('description', v)}
          multiline
        />
        <TextField
          id="dataset-creators"
          label="Creators"
          value={form.creators}
          onChange={(v) => set('creators', v)}
          hint="Names separated by ; (empty: your name)"
        />
        <ChoiceField
          id="dataset-license"
          label="Licence"
          value={form.license}
          options={DATASET_LICENSES.map((id) => [id, LICENSE_TITLES[id]] as const)}
          onChange={(v) => set('license', v)}
        />
        <ChoiceField
          id="dataset-visibility"
          label="Who may read it"
          value={form.visibility}
          options={[
            ['permissioned', 'Permissioned: people with access to its data'],
            ['public', 'Public: anyone, guests too (public devices only)'],
          ]}
          onChange={(v) => set('visibility', v)}
        />
        <ChoiceField
          id="dataset-source"
          label="Of"
          value={form.sourceKind}
          options={[
            ['devices', 'Chosen devices'],
            ['campaign', "A campaign's devices and window"],
          ]}
          onChange={(v) => set('sourceKind', v)}
        />
        {form.sourceKind === 'devices' ? (
          <fieldset
            className={build.fields.deviceIds ? 'device-choices field-invalid' : 'device-choices'}
            data-testid="dataset-devices"
            aria-describedby={build.fields.deviceIds ? 'dataset-devices-error' : undefined}
          >
            <legend>Devices</legend>
            <PagedList list={devices} name="dataset-devices" loadingText="Loading your devices…">
              {devices.loaded && choices.length === 0 && (
                <span className="muted small" data-testid="dataset-devices-none">
                  {staff ? 'You have no devices of your own: add any device below.' : 'You have no devices.'}
                </span>
              )}
              {choices.map((device) => (
                <label key={device.id} {...listItem(device.id)}>
                  <input
                    type="checkbox"
                    data-testid={`dataset-device-${device.id}`}
                    checked={form.deviceIds.includes(device.id)}
                    onChange={(e) => toggleDevice(device.id, e.target.checked)}
                  />
                  {device.name || device.id} <span className="muted small mono">{device.id}</span>
                </label>
              ))}
            </PagedList>
            {build.fields.deviceIds && (
              <span className="field-error" id="dataset-devices-error" data-testid="dataset-devices-error">
                {build.fields.deviceIds}
              </span>
            )}
          </fieldset>
        ) : null}
        {form.sourceKind === 'devices' && staff && (
          <div className="dataset-add-device">
            <ObjectPicker
              id="dataset-add-device"
              label="Another device (staff: any device)"
              value={adding}
              onChange={setAdding}
              options={(platform?.options ?? []).filter((option) => !choices.some((chosen) => chosen.id === option.id))}
              loading={platform?.loading}
              placeholder="Choose a device"
            />
            <button
              type="button"
              data-testid="dataset-add-device-button"
              disabled={!adding.trim()}
              onClick={() => {
                toggleDevice(adding.trim(), true);
                setAdding('');
              }}
            >
              Add to the dataset
            </button>
          </div>
        )}
        {form.sourceKind === 'campaign' && (
          <PagedList list={managedPages} name="dataset-campaigns" loadingText="Loading the campaigns you manage…">
            <ChoiceField
              id="dataset-campaign"
              label="Campaign"
              value={form.campaignId}
              options={[
                [
                  '',
                  managed.length || managedPages.nextCursor || !managedPages.loaded
                    ? 'Choose a campaign you manage'
                    : 'You manage no campaigns',
                ],
                ...managed.map((c) => [c.id, c.name] as const),
                // A campaign named in the link but not (yet) listed still shows, by its id.
                ...(form.campaignId && !managed.some((c) => c.id === form.campaignId)
                  ? [[form.campaignId, form.campaignId] as const]
                  : []),
              ]}
              onChange={(v) => set('campaignId', v)}
              error={build.fields.campaignId}
            />
          </PagedList>
        )}
        <TextField
          id="dataset-from"
          label="From (UTC day, optional)"
          type="text"
          placeholder="YYYY-MM-DD"
          value={form.from}
          onChange={(v) => set('from', v)}
          error={build.fields.from}
          hint="Empty: as far back as each device's tier allows (a campaign: its start)"
        />
        <TextField
          id="dataset-to"
          label="To (UTC day, optional)"
          type="text"
          placeholder="YYYY-MM-DD"
          value={form.to}
          onChange={(v) => set('to', v)}
          error={build.fields.to}
          hint="Empty: now (a campaign: its end, or now)"
        />
        <TextField
          id="dataset-measurements"
          label="Measurements (optional)"
          value={form.measurements}
          onChange={(v) => set('measurements', v)}
          hint="Names separated by commas, e.g. pm2_5, temperature (empty: all of them)"
          mono
        />
        <label className="check">
          <input
            type="checkbox"
            data-testid="dataset-parquet"
            checked={form.parquet}
            onChange={(e) => set('parquet', e.target.checked)}
          />
          Also as Parquet (for notebooks and data lakes), beside CSV and JSON
        </label>
      </EditForm>
    </section>
  );
};
