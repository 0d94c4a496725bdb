import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { GROUP_NAMES, type GroupName } from '../../../../shared/auth/groups';
import { PERSON_RELATION_TYPES } from '../../../../shared/notifications/audience';
import type { RelationType } from '../../../../shared/relations/relation-types';
import type { PickedPerson } from '../../components/person-picker';
import { PersonPicker } from '../../components/person-picker-lazy';
import { ChoiceField, TextField } from '../../lib/form-fields';
import { errorOf, routeQuery } from '../../lib/query';
import { AudienceLabel } from './audience-label';
import { type AudienceDraft, audienceChip, audienceText, peopleCount } from './notification-rules';

type Kind = AudienceDraft['kind'];

const KINDS = [
  ['user', 'Person'],
  ['relation', 'Relation'],
  ['role', 'Role'],
] as const;

const ROLES = GROUP_NAMES.filter((group) => group !== 'None');

/** Waits until a value has stopped changing for `ms`: the recipient count is asked once per pause, not per click. */
const useSettled = <T,>(value: T, ms: number): T => {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
};

interface AudiencePickerProps {
  audience: readonly string[];
  onChange: (audience: string[]) => void;
  /** The form's message about the audience (e.g. "Name at least one audience"). */
  error?: string;
}

/**
 * Builds the spec's audience selectors from fields (a person's id, a relation type and its referrer, a role) as
 * removable chips, and shows how many people they reach now (POST /notification-audience), asked again whenever
 * the list settles and on "Preview recipients".
 */
export const AudiencePicker = ({ audience, onChange, error }: AudiencePickerProps) => {
  const [kind, setKind] = useState<Kind>('user');
  const [userId, setUserId] = useState('');
  // The picker is drawn anew after each add, so it starts empty.
  const [pickerKey, setPickerKey] = useState(0);
  const [picked, setPicked] = useState<PickedPerson>();
  const [relationType, setRelationType] = useState<RelationType>(PERSON_RELATION_TYPES[0]!);
  const [referrerId, setReferrerId] = useState('');
  const [group, setGroup] = useState<GroupName>('Administrators');
  const [refused, setRefused] = useState<string>();

  const settled = useSettled(audience.join('\n'), 400);
  const selectors = settled ? settled.split('\n') : [];
  const preview = useQuery({
    ...routeQuery('notifications', 'previewAudience', { body: { audience: selectors } }),
    enabled: selectors.length > 0,
    refetchInterval: false,
  });

  const add = () => {
    const draft: AudienceDraft =
      kind === 'user' ? { kind, userId } : kind === 'relation' ? { kind, relationType, referrerId } : { kind, group };
    const chip = audienceChip(draft, audience);
    if (!chip.ok) return setRefused(chip.error);
    setRefused(undefined);
    onChange([...audience, chip.selector]);
    setUserId('');
    setPicked(undefined);
    setPickerKey((key) => key + 1);
    setReferrerId('');
  };

  return (
    <fieldset className="audience-picker" aria-describedby="audience-count">
      <legend>Audience</legend>
      <div className="field-row">
        <ChoiceField id="audience-kind" label="Who" value={kind} options={KINDS} onChange={setKind} />
        {kind === 'user' && (
          <PersonPicker
            key={pickerKey}
            id="audience-user-id"
            label="Person"
            value={picked}
            onChange={(person) => {
              setPicked(person);
              setUserId(person?.kind === 'person' ? person.id : '');
            }}
          />
        )}
        {kind === 'relation' && (
          <>
            <ChoiceField
              id="audience-relation-type"
              label="Relation type"
              value={relationType}
              options={PERSON_RELATION_TYPES.map((type) => [type, type] as const)}
              onChange={setRelationType}
            />
            <TextField
              id="audience-referrer-id"
              label="Referrer id"
              value={referrerId}
              onChange={setReferrerId}
              mono
              hint="The device, organization or campaign."
            />
          </>
        )}
        {kind === 'role' && (
          <ChoiceField
            id="audience-role"
            label="Role"
            value={group}
            options={ROLES.map((name) => [name, name] as const)}
            onChange={setGroup}
          />
        )}
      </div>
      {refused && (
        <p className="field-error" role="alert" data-testid="audience-refused">
          {refused}
        </p>
      )}
      <button type="button" data-testid="audience-add" onClick={add}>
        Add to audience
      </button>
      {error && (
        <p className="field-error" data-testid="audience-error">
          {error}
        </p>
      )}
      {audience.length > 0 && (
        <ul className="chips" aria-label="Audience" data-testid="audience-chips">
          {audience.map((selector) => (
            <li key={selector} className="chip" data-testid="audience-chip">
              <AudienceLabel selector={selector} />
              <button
                type="button"
                className="chip-remove"
                aria-label={`Remove ${audienceText(selector)}`}
                onClick={() => onChange(audience.filter((s) => s !== selector))}
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="audience-preview">
        <p id="audience-count" role="status" data-testid="audience-preview">
          {audience.length === 0
            ? 'Add someone to see how many people it reaches.'
            : preview.isFetching || settled !== audience.join('\n')
              ? 'Counting recipients…'
              : preview.data
                ? `Reaches ${peopleCount(preview.data.recipients)} now.`
                : (errorOf(preview) ?? '')}
        </p>
        <button
          type="button"
          data-testid="audience-preview-refresh"
          disabled={audience.length === 0 || preview.isFetching}
          onClick={() => void preview.refetch()}
        >
          Preview recipients
        </button>
      </div>
    </fieldset>
  );
};
