import { type Campaign, type CampaignStatus, campaigns } from '../../../../shared/contracts/campaigns';
import type { RouteRequest } from '../../../../shared/contracts/define-route';
import { users } from '../../../../shared/contracts/users';
import type { RelationType } from '../../../../shared/relations/relation-types';
import { type Checked, checkWith, problem } from '../../lib/form-check';

/**
 * The campaign screens' rules, without React: the window's dates between the form's local date-time fields
 * and the API's milliseconds, the forms' bodies checked with the contract (end after start, longest window),
 * and the participant invite.
 */

export type NewCampaignBody = RouteRequest<typeof campaigns.routes.create>['body'];
export type CampaignChangeBody = RouteRequest<typeof campaigns.routes.update>['body'];
export type InviteBody = RouteRequest<typeof users.routes.inviteUser>['body'];

export const CAMPAIGN_STATUS_TEXT: Record<CampaignStatus, string> = {
  planned: 'Planned',
  running: 'Running',
  ended: 'Ended',
};

const pad = (n: number) => String(n).padStart(2, '0');

/** Milliseconds as an `<input type="datetime-local">` value, in the reader's time zone (minutes). */
export const toLocalInput = (ms: number): string => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

/** An `<input type="datetime-local">` value (the reader's time zone) as milliseconds; undefined if not a time. */
export const fromLocalInput = (text: string): number | undefined => {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!match) return undefined;
  const [y, mo, d, h, mi, s = 0] = match.slice(1).map((part) => (part === undefined ? undefined : Number(part))) as [
    number,
    number,
    number,
    number,
    number,
    number?,
  ];
  const date = new Date(y, mo - 1, d, h, mi, s);
  // new Date rolls 31 February over to March: such a date was not a date.
  if (date.getMonth() !== mo - 1 || date.getDate() !== d) return undefined;
  return date.getTime();
};

export interface CampaignForm {
  name: string;
  description: string;
  /** `datetime-local` values. */
  startsAt: string;
  endsAt: string;
  /** Empty for none. */
  organizationId: string;
}

export const emptyCampaignForm = (organizationId = ''): CampaignForm => ({
  name: '',
  description: '',
  startsAt: '',
  endsAt: '',
  organizationId,
});

export const campaignFormOf = (campaign: Campaign): CampaignForm => ({
  name: campaign.name,
  description: campaign.description,
  startsAt: toLocalInput(campaign.startsAt),
  endsAt: toLocalInput(campaign.endsAt),
  organizationId: campaign.organizationId ?? '',
});

const readWindow = (form: CampaignForm) => {
  if (!form.startsAt.trim()) return problem('startsAt', 'Give the date and time the campaign starts');
  const startsAt = fromLocalInput(form.startsAt);
  if (startsAt === undefined) return problem('startsAt', 'Start must be a date and time');
  if (!form.endsAt.trim()) return problem('endsAt', 'Give the date and time the campaign ends');
  const endsAt = fromLocalInput(form.endsAt);
  if (endsAt === undefined) return problem('endsAt', 'End must be a date and time');
  return { ok: true as const, startsAt, endsAt };
};

export const checkNewCampaign = (form: CampaignForm): Checked<NewCampaignBody> => {
  const window = readWindow(form);
  if (!window.ok) return window;
  return checkWith(campaigns.routes.create.body!, {
    name: form.name,
    description: form.description,
    startsAt: window.startsAt,
    endsAt: window.endsAt,
    ...(form.organizationId.trim() ? { organizationId: form.organizationId.trim() } : {}),
  });
};

/**
 * The fields that changed. Both ends of the window are sent when either changed, so the end-after-start rule
 * is checked here on the window the campaign will have; an emptied organization unlinks it (`null`).
 */
export const checkCampaignChange = (campaign: Campaign, form: CampaignForm): Checked<CampaignChangeBody> => {
  const window = readWindow(form);
  if (!window.ok) return window;
  const body: CampaignChangeBody = {};
  if (form.name !== campaign.name) body.name = form.name;
  if (form.description !== campaign.description) body.description = form.description;
  // The form holds minutes: an unchanged field keeps the stored instant to the millisecond.
  const startChanged = form.startsAt !== toLocalInput(campaign.startsAt);
  const endChanged = form.endsAt !== toLocalInput(campaign.endsAt);
  if (startChanged || endChanged) {
    body.startsAt = startChanged ? window.startsAt : campaign.startsAt;
    body.endsAt = endChanged ? window.endsAt : campaign.endsAt;
  }
  const organizationId = form.organizationId.trim();
  if (organizationId !== (campaign.organizationId ?? '')) body.organizationId = organizationId || null;
  if (!Object.keys(body).length) return problem('form', 'Nothing to change');
  return checkWith(campaigns.routes.update.body!, body);
};

/** May the caller change the campaign and invite to it: a manager of it, or staff. */
export const mayManageCampaign = (roles: readonly RelationType[], staff: boolean): boolean =>
  staff || roles.includes('campaign-manager');

/** "Invite a participant": an invite of type campaign-participant for this campaign, from the caller. */
export const checkParticipantInvite = (
  form: { email: string; name: string; message: string },
  inviter: { id: string; name: string },
  campaignId: string,
): Checked<InviteBody> =>
  checkWith(users.routes.inviteUser.body!, {
    type: 'campaign-participant',
    inviterId: inviter.id,
    inviterName: inviter.name,
    objectId: campaignId,
    invited: { email: form.email.trim(), ...(form.name.trim() ? { name: form.name } : {}) },
    ...(form.message.trim() ? { message: form.message } : {}),
  });

/** A window in words: "1 Jun 2030, 10:00 – 30 Jun 2030, 18:00" in the reader's locale. */
export const windowText = (campaign: Pick<Campaign, 'startsAt' | 'endsAt'>): string => {
  const format = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return `${format(campaign.startsAt)} – ${format(campaign.endsAt)}`;
};
