import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ExclusionBody } from '../../../../shared/contracts/sensor-data-quality';
import { EditForm } from '../../components/edit-form';
import { ErrorAlert } from '../../components/form-parts';
import { apiClient } from '../../lib/api';
import { checkWith, problem } from '../../lib/form-check';
import { TextField } from '../../lib/form-fields';
import { errorOf, routeKey, routeQuery, useChanges } from '../../lib/query';
import { useCheckedSubmit } from '../../lib/use-checked-submit';
import { ExcludedRanges } from './excluded-ranges';
import { campaignExclusionsOf, exclusionRange } from './exclusion-rules';

const EMPTY = { from: '', to: '', reason: '' };

/**
 * A campaign's data quality for its managers and staff (docs/data-quality.md "Screens"): the ranges excluded from every
 * device of the campaign at once, each with "Bring back", and a form to exclude one more within the campaign's window
 * (each device's charts, downloads and API leave it out within seconds; nothing is deleted).
 */
export const CampaignQualityPanel = ({ campaignId }: { campaignId: string }) => {
  const list = useQuery(routeQuery('sensor-data', 'listCampaignExclusions', { params: { id: campaignId } }));
  const [fields, setFields] = useState(EMPTY);
  const removals = useChanges<string>();
  const touched = [
    routeKey('sensor-data', 'listCampaignExclusions'),
    routeKey('sensor-data', 'listExclusions'),
    routeKey('sensor-data', 'series'),
    routeKey('sensor-data', 'campaignSeries'),
  ];
  const exclude = useCheckedSubmit(
    () => {
      const range = exclusionRange(fields);
      if (typeof range === 'string') return problem('from', range);
      return checkWith(ExclusionBody, { ...range, reason: fields.reason });
    },
    async (body) => {
      const made = await apiClient('sensor-data').addCampaignExclusion({ params: { id: campaignId }, body });
      setFields(EMPTY);
      return `Excluded from ${made.items.length} ${made.items.length === 1 ? 'device' : 'devices'}. Their charts leave the range out within seconds; nothing is deleted.`;
    },
    touched,
  );
  const set = (field: keyof typeof EMPTY) => (value: string) => setFields((f) => ({ ...f, [field]: value }));
  const active = campaignExclusionsOf(list.data?.items ?? []);

  return (
    <section className="card section-card" aria-labelledby="campaign-quality-heading" data-testid="campaign-quality">
      <h2 id="campaign-quality-heading">Data quality</h2>
      <p className="muted small">
        Ranges excluded from every device of the campaign at once. A device's own page lists them too.
      </p>
      <ErrorAlert testId="campaign-exclusions-error" error={errorOf(list) ?? removals.error} />
      <ExcludedRanges
        testId="campaign-exclusion"
        items={active}
        covers={(e) => `${e.devices} ${e.devices === 1 ? 'device' : 'devices'}`}
        busy={removals.busy}
        onBringBack={(e) =>
          removals.run(
            e.id,
            () => apiClient('sensor-data').removeCampaignExclusion({ params: { id: campaignId, exclusionId: e.id } }),
            touched,
          )
        }
      />
      <EditForm
        name="campaign-exclusion"
        title="Exclude a range of every device"
        level={3}
        className="create-form"
        form={exclude}
        submitText="Exclude"
        busyText="Excluding…"
      >
        <div className="field-row">
          <TextField
            id="campaign-exclusion-from"
            label="From"
            type="datetime-local"
            value={fields.from}
            onChange={set('from')}
            error={exclude.fields.from}
          />
          <TextField
            id="campaign-exclusion-to"
            label="To"
            type="datetime-local"
            value={fields.to}
            onChange={set('to')}
            error={exclude.fields.to}
            hint="Within the campaign's window"
          />
        </div>
        <TextField
          id="campaign-exclusion-reason"
          label="Reason"
          value={fields.reason}
          onChange={set('reason')}
          error={exclude.fields.reason}
        />
      </EditForm>
    </section>
  );
};
