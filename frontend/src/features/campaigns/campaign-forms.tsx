import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { Campaign } from '../../../../shared/contracts/campaigns';
import { EditForm } from '../../components/edit-form';
import { useApi } from '../../lib/api';
import { TextField } from '../../lib/form-fields';
import { sectionOf } from '../../lib/navigation';
import { useCheckedSubmit } from '../../lib/use-checked-submit';
import { campaignListKeys, campaignShownKeys } from './campaign-api';
import {
  type CampaignForm,
  campaignFormOf,
  checkCampaignChange,
  checkNewCampaign,
  emptyCampaignForm,
} from './campaign-rules';

const Fields = ({
  prefix,
  form,
  onChange,
  fields,
  organizationFixed,
}: {
  prefix: string;
  form: CampaignForm;
  onChange: (form: CampaignForm) => void;
  /** Each field's message, by field name. */
  fields: Record<string, string>;
  /** The form was opened from an organization's page: the organization is not a choice. */
  organizationFixed?: boolean;
}) => {
  const set = (key: keyof CampaignForm) => (value: string) => onChange({ ...form, [key]: value });
  return (
    <>
      <TextField id={`${prefix}-name`} label="Name" value={form.name} onChange={set('name')} error={fields.name} />
      <TextField
        id={`${prefix}-description`}
        label="Description (optional)"
        value={form.description}
        onChange={set('description')}
        error={fields.description}
        multiline
      />
      <div className="field-row">
        <TextField
          id={`${prefix}-starts`}
          label="Starts"
          type="datetime-local"
          value={form.startsAt}
          onChange={set('startsAt')}
          error={fields.startsAt}
        />
        <TextField
          id={`${prefix}-ends`}
          label="Ends"
          type="datetime-local"
          value={form.endsAt}
          onChange={set('endsAt')}
          error={fields.endsAt}
          hint="After the start; data is shown only within the window"
        />
      </div>
      {!organizationFixed && (
        <TextField
          id={`${prefix}-organization`}
          label="Organization id (optional)"
          value={form.organizationId}
          onChange={set('organizationId')}
          error={fields.organizationId}
          hint="Linking needs a manager of the organization"
          mono
        />
      )}
    </>
  );
};

/** "New campaign": the caller becomes its manager; the page of the new campaign opens. */
export const NewCampaignForm = ({ organizationId, onCancel }: { organizationId?: string; onCancel?: () => void }) => {
  const campaigns = useApi('campaigns');
  const navigate = useNavigate();
  const base = `/${sectionOf(useLocation().pathname)}`;
  const [form, setForm] = useState<CampaignForm>(() => emptyCampaignForm(organizationId));
  const { submit, busy, error, fields } = useCheckedSubmit(
    () => checkNewCampaign(form),
    async (body) => {
      const created = await campaigns.create({ body });
      navigate(`${base}/campaigns/${encodeURIComponent(created.id)}`);
    },
    campaignListKeys,
  );

  return (
    <EditForm
      name="new-campaign"
      title="New campaign"
      form={{ submit, busy, error }}
      submitText="Create campaign"
      busyText="Creating…"
      onCancel={onCancel}
    >
      <Fields
        prefix="new-campaign"
        form={form}
        onChange={setForm}
        fields={fields}
        organizationFixed={!!organizationId}
      />
    </EditForm>
  );
};

/** A campaign's fields and window, for its managers and staff; only what changed is sent. */
export const CampaignEditForm = ({ campaign }: { campaign: Campaign }) => {
  const campaigns = useApi('campaigns');
  const [form, setForm] = useState<CampaignForm>(() => campaignFormOf(campaign));
  const { submit, busy, error, fields, done, edited } = useCheckedSubmit(
    () => checkCampaignChange(campaign, form),
    async (body) => {
      const updated = await campaigns.update({ params: { id: campaign.id }, body });
      setForm(campaignFormOf(updated));
      return 'Saved.';
    },
    campaignShownKeys(campaign.id),
  );

  return (
    <EditForm
      name="campaign-edit"
      title="Edit"
      form={{ submit, busy, error, done, edited }}
      submitText="Save"
      busyText="Saving…"
    >
      <Fields prefix="campaign-edit" form={form} onChange={setForm} fields={fields} />
    </EditForm>
  );
};
