/**
 * What other features may use of the relations (docs/style.md §9, §17): the members panel of an object's page, the
 * caller's roles on an object, the reads a relation's change touches, and the grouping and links of a person's
 * relations on the dashboard.
 */
export { MembersPanel } from './members-panel';
export { GROUP_ORDER, groupByReferrerKind, KIND_TITLE, objectPath } from './relation-groups';
export { ObjectLink } from './relation-table';
export { relationChangeKeys } from './relations-api';
export { RELATIONS_MESSAGES } from './relations-messages';
export { useMyRoles } from './use-my-roles';
