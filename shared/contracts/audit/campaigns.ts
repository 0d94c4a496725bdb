import type { campaigns } from '../campaigns';
import { defineAudit, notAudited } from '../define-audit';

const campaignInPath = { kind: 'campaign', id: ({ params }: { params: { id: string } }) => params.id } as const;

/** Campaigns changed by staff (docs/audit.md); staff may manage any, so every staff change is recorded. */
export const campaignsAudit = /* @__PURE__ */ defineAudit<typeof campaigns>({
  create: {
    action: 'campaign.create',
    label: 'Created a campaign in an organization',
    target: { kind: 'campaign', id: (_request, campaign) => campaign?.id },
    // A campaign of no organization is the creator's own; in an organization it needs managing it, or staff.
    own: ({ body }) => body.organizationId === undefined,
  },
  listAll: notAudited('a read'),
  update: { action: 'campaign.update', label: 'Changed a campaign', target: campaignInPath },
  delete: { action: 'campaign.delete', label: 'Deleted a campaign', target: campaignInPath },
});
