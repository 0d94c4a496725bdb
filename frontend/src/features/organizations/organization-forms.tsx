import { type FormEvent, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { Organization } from '../../../../shared/contracts/organizations';
import { DESCRIPTION_MAX, NAME_MAX } from '../../../../shared/contracts/organizations';
import { useApi } from '../../lib/api';
import type { FormProblems } from '../../lib/form-check';
import { TextField } from '../../lib/form-fields';
import { sectionOf } from '../../lib/navigation';
import { useAction } from '../../lib/use-action';
import { DoneNote } from '../people/paged-parts';
import { ErrorAlert, SubmitButton } from '../relations/relation-fields';
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
  problems,
}: {
  prefix: string;
  form: OrganizationForm;
  onChange: (form: OrganizationForm) => void;
  problems: FormProblems | undefined;
}) => {
  const set = (key: keyof OrganizationForm) => (value: string) => onChange({ ...form, [key]: value });
  const fields = problems?.fields ?? {};
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
  const [problems, setProblems] = useState<FormProblems>();
  const { busy, error, run } = useAction<'create'>();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkNewOrganization(form);
    if (!checked.ok) return setProblems(checked);
    setProblems(undefined);
    void run('create', async () => {
      const created = await organizations.create({ body: checked.value });
      navigate(`${base}/organizations/${encodeURIComponent(created.id)}`);
    });
  };

  return (
    <form className="card create-form" onSubmit={submit} noValidate aria-labelledby="new-organization-heading">
      <h2 id="new-organization-heading">New organization</h2>
      <ErrorAlert testId="new-organization-error" error={error ?? problems?.message} />
      <Fields prefix="new-organization" form={form} onChange={setForm} problems={problems} />
      <div className="actions">
        <SubmitButton testId="new-organization-submit" busy={busy === 'create'} busyText="Creating…">
          Create organization
        </SubmitButton>
        {onCancel && (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
};

/** The organization's own fields, for its managers and staff; only what changed is sent. */
export const OrganizationEditForm = ({
  organization,
  onSaved,
}: {
  organization: Organization;
  onSaved: (o: Organization) => void;
}) => {
  const organizations = useApi('organizations');
  const [form, setForm] = useState<OrganizationForm>(() => organizationFormOf(organization));
  const [problems, setProblems] = useState<FormProblems>();
  const [saved, setSaved] = useState<string>();
  const { busy, error, run } = useAction<'save'>();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaved(undefined);
    const checked = checkOrganizationChange(organization, form);
    if (!checked.ok) return setProblems(checked);
    setProblems(undefined);
    void run('save', async () => {
      const updated = await organizations.update({ params: { id: organization.id }, body: checked.value });
      onSaved(updated);
      setForm(organizationFormOf(updated));
      setSaved('Saved.');
    });
  };

  return (
    <form className="card create-form" onSubmit={submit} noValidate aria-labelledby="organization-edit-heading">
      <h2 id="organization-edit-heading">Edit</h2>
      <ErrorAlert testId="organization-edit-error" error={error ?? problems?.message} />
      <DoneNote text={saved} testId="organization-edit-saved" />
      <Fields prefix="organization-edit" form={form} onChange={setForm} problems={problems} />
      <SubmitButton testId="organization-edit-submit" busy={busy === 'save'} busyText="Saving…">
        Save
      </SubmitButton>
    </form>
  );
};
