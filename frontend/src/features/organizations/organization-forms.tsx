import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { Organization } from '../../../../shared/contracts/organizations';
import { DESCRIPTION_MAX, NAME_MAX } from '../../../../shared/contracts/organizations';
import { EditForm } from '../../components/edit-form';
import { useApi } from '../../lib/api';
import { TextField } from '../../lib/form-fields';
import { sectionOf } from '../../lib/navigation';
import { useCheckedSubmit } from '../../lib/use-checked-submit';
import { organizationListKeys, organizationShownKeys } from './organization-api';
import {
  checkNewOrganization,
  checkOrganizationChange,
  EMPTY_ORGANIZATION,
  type OrganizationForm,
  organizationFormOf,
} from './organization-rules';

const Fields = ({
  prefix,
  form,
  onChange,
  fields,
}: {
  prefix: string;
  form: OrganizationForm;
  onChange: (form: OrganizationForm) => void;
  /** Each field's message, by field name. */
  fields: Record<string, string>;
}) => {
  const set = (key: keyof OrganizationForm) => (value: string) => onChange({ ...form, [key]: value });
  return (
    <>
      <TextField
        id={`${prefix}-name`}
        label="Name"
        value={form.name}
        onChange={set('name')}
        error={fields.name}
        hint={`At most ${NAME_MAX} characters`}
      />
      <TextField
        id={`${prefix}-description`}
        label="Description (optional)"
        value={form.description}
        onChange={set('description')}
        error={fields.description}
        hint={`At most ${DESCRIPTION_MAX} characters`}
        multiline
      />
      <div className="field-row">
        <TextField
          id={`${prefix}-website`}
          label="Website (optional)"
          type="url"
          value={form.website}
          onChange={set('website')}
          error={fields.website}
          placeholder="https://…"
        />
        <TextField
          id={`${prefix}-contact`}
          label="Contact e-mail (optional)"
          type="email"
          value={form.contactEmail}
          onChange={set('contactEmail')}
          error={fields.contactEmail}
        />
      </div>
    </>
  );
};

/** "New organization": the caller becomes its manager; the page of the new organization opens. */
export const NewOrganizationForm = ({ onCancel }: { onCancel?: () => void }) => {
  const organizations = useApi('organizations');
  const navigate = useNavigate();
  const base = `/${sectionOf(useLocation().pathname)}`;
  const [form, setForm] = useState<OrganizationForm>(EMPTY_ORGANIZATION);
  const { submit, busy, error, fields } = useCheckedSubmit(
    () => checkNewOrganization(form),
    async (body) => {
      const created = await organizations.create({ body });
      navigate(`${base}/organizations/${encodeURIComponent(created.id)}`);
    },
    organizationListKeys,
  );

  return (
    <EditForm
      name="new-organization"
      title="New organization"
      form={{ submit, busy, error }}
      submitText="Create organization"
      busyText="Creating…"
      onCancel={onCancel}
    >
      <Fields prefix="new-organization" form={form} onChange={setForm} fields={fields} />
    </EditForm>
  );
};

/** The organization's own fields, for its managers and staff; only what changed is sent. */
export const OrganizationEditForm = ({ organization }: { organization: Organization }) => {
  const organizations = useApi('organizations');
  const [form, setForm] = useState<OrganizationForm>(() => organizationFormOf(organization));
  const { submit, busy, error, fields, done, edited } = useCheckedSubmit(
    () => checkOrganizationChange(organization, form),
    async (body) => {
      const updated = await organizations.update({ params: { id: organization.id }, body });
      setForm(organizationFormOf(updated));
      return 'Saved.';
    },
    organizationShownKeys(organization.id),
  );

  return (
    <EditForm
      name="organization-edit"
      title="Edit"
      form={{ submit, busy, error, done, edited }}
      submitText="Save"
      busyText="Saving…"
    >
      <Fields prefix="organization-edit" form={form} onChange={setForm} fields={fields} />
    </EditForm>
  );
};
