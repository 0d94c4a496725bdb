import type { ObjectKind } from '../../../../shared/relations/relation-types';

/**
 * The relations screens' own wording. The API's refusals (shared/messages.ts) are shown as they come;
 * these are the texts the web app adds around them.
 */
export const RELATIONS_MESSAGES = {
  removeConfirm: (type: string, referrerId: string, referentId: string) =>
    `Remove the ${type} relation between ${referrerId} and ${referentId}?`,
  deleteConfirm: (id: string) => `Delete relation "${id}"? This cannot be undone.`,
  noMembers: 'No members yet.',
  noDevices: 'No devices yet.',
  noHolders: (kind: ObjectKind) => `Not in any ${kind}.`,
  noRelations: 'No relations match.',
  noneOfKind: 'None yet.',
} as const;
