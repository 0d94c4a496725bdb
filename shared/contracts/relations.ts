import * as z from 'zod';
import { parseRelationId, RELATION_TYPES } from '../relations/relation-types';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, page } from './common';
import { defineArea, defineRoute, minGroup, signedIn } from './define-route';
import { ObjectId, PageSize, Relation, RelationType } from './shapes';

export { ObjectId, PageSize, Relation, RelationType };

/**
 * `type#referrerId#referentId`. A gateway may hand the path parameter over still percent-encoded
 * (`%23` for `#`); ids never contain `%`, so decoding here is safe either way.
 */
export const RelationId = z.preprocess(
  (value) => (typeof value === 'string' && value.includes('%') ? safeDecode(value) : value),
  z
    .string()
    .max(400, 'Relation id is too long')
    .refine((id) => parseRelationId(id) !== undefined, 'Relation id must be "type#referrerId#referentId"'),
);

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

const Cursor = z.string().min(1).max(2048);

export const RelationTypeInfo = z.object({
  type: RelationType,
  referrer: z.enum(['organization', 'campaign', 'device', 'user', 'invite']),
  referent: z.enum(['organization', 'campaign', 'device', 'user', 'invite']),
  family: z.array(RelationType),
});

export const RelationQuery = z.object({
  typeName: z.enum(['referrer', 'referent'], { error: 'typeName must be "referrer" or "referent"' }),
  typeArray: z.array(RelationType).min(1, 'typeArray needs at least one type').max(RELATION_TYPES.length),
  id: ObjectId,
  /** Ours, optional: only the relations between `id` and this id (e.g. "my roles on this organization"). */
  otherId: ObjectId.optional(),
});
export type RelationQuery = z.infer<typeof RelationQuery>;

const NewRelation = z.object({ type: RelationType, referrerId: ObjectId, referentId: ObjectId }).strict();
const ListFilter = z.object({ type: RelationType.optional(), cursor: Cursor.optional() });
const ByIdParams = z.object({ id: ObjectId, x: PageSize });
const RelationParams = z.object({ id: RelationId });

/** The kinds of object a name is asked for (people's names are the users area's). */
export const NamedKind = z.enum(['device', 'organization', 'campaign'], {
  error: () => 'Kind must be one of: device, organization, campaign',
});
export type NamedKind = z.infer<typeof NamedKind>;

/** The most objects one names request takes: DynamoDB's BatchGetItem limit, and more than a screen shows. */
export const MAX_NAMED_OBJECTS = 100;

export const ObjectName = z.object({ kind: NamedKind, id: z.string(), name: z.string() });
export type ObjectName = z.infer<typeof ObjectName>;

export const relations = defineArea('relations', {
  create: defineRoute({
    method: 'POST',
    path: '/create',
    access: signedIn,
    summary: 'Create a relation; 409 when the same (type, referrer, referent) exists. Rules: docs/relations.md.',
    body: NewRelation,
    response: Relation,
    status: 201,
  }),
  list: defineRoute({
    method: 'GET',
    path: '/list',
    access: minGroup('Employees'),
    summary: 'Every relation, newest first, optionally of one type (staff); `limit` is the page size.',
    query: ListFilter.extend({ limit: PageSize.default(DEFAULT_PAGE_SIZE) }),
    response: page(Relation),
  }),
  listPage: defineRoute({
    method: 'GET',
    path: '/list/{x}',
    access: minGroup('Employees'),
    summary: 'As GET /list with the page size `{x}` in the path.',
    params: z.object({ x: PageSize }),
    query: ListFilter,
    response: page(Relation),
  }),
  listTypes: defineRoute({
    method: 'GET',
    path: '/listTypes',
    access: signedIn,
    summary: 'The 13 relation types, what each links, and the roles a type may change to.',
    response: z.array(RelationTypeInfo),
  }),
  listByParameters: defineRoute({
    method: 'POST',
    path: '/listByParameters/',
    access: signedIn,
    summary: 'Relations matching any of the parameters (referrer or referent id, of the given types), paged.',
    body: z
      .object({
        parameters: z.array(RelationQuery).min(1, 'parameters needs at least one entry').max(20),
        limit: PageSize.default(DEFAULT_PAGE_SIZE),
        cursor: Cursor.optional(),
      })
      .strict(),
    response: page(Relation),
  }),
  listByReferrerId: defineRoute({
    method: 'GET',
    path: '/listByReferrerId/{id}/{x}',
    access: signedIn,
    summary: 'Relations whose referrer is `{id}` (e.g. the members of an organization), `{x}` per page.',
    params: ByIdParams,
    query: ListFilter,
    response: page(Relation),
  }),
  listByReferentId: defineRoute({
    method: 'GET',
    path: '/listByReferentId/{id}/{x}',
    access: signedIn,
    summary: 'Relations whose referent is `{id}` (e.g. everything a user belongs to), `{x}` per page.',
    params: ByIdParams,
    query: ListFilter,
    response: page(Relation),
  }),
  get: defineRoute({
    method: 'GET',
    path: '/get/{id}',
    access: signedIn,
    summary: 'One relation by its id `type#referrerId#referentId` (URL-encoded).',
    params: RelationParams,
    response: Relation,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/update/{id}',
    access: signedIn,
    summary: "Change a relation's role within its family (e.g. organization-user to organization-manager).",
    params: RelationParams,
    body: z.object({ type: RelationType }).strict(),
    response: Relation,
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/delete/{id}',
    access: signedIn,
    summary: 'Delete a relation. Rules: docs/relations.md.',
    params: RelationParams,
    response: z.void(),
  }),
  names: defineRoute({
    method: 'POST',
    path: '/names',
    access: signedIn,
    summary:
      'Ours: names of devices, organizations and campaigns by id, in one read per screen. Answers only the objects ' +
      'the caller may view (staff: all) and, with `within`, the devices that organization or campaign lists when ' +
      'the caller may view it; others, and ids without a record, are left out (docs/relations.md, "Names").',
    body: z
      .object({
        objects: z
          .array(z.object({ kind: NamedKind, id: ObjectId }).strict())
          .min(1, 'objects needs at least one entry')
          .max(MAX_NAMED_OBJECTS, `At most ${MAX_NAMED_OBJECTS} objects`),
        within: z
          .object({ kind: z.enum(['organization', 'campaign']), id: ObjectId })
          .strict()
          .optional(),
      })
      .strict(),
    response: z.object({ items: z.array(ObjectName) }),
  }),
  migrate: defineRoute({
    method: 'GET',
    path: '/migrate/',
    access: minGroup('Administrators'),
    summary: 'Bring one page of stored relations to the current shape (index keys, created); idempotent.',
    query: z.object({ limit: PageSize.default(MAX_PAGE_SIZE), cursor: Cursor.optional() }),
    response: z.object({
      scanned: z.number().int(),
      updated: z.number().int(),
      /** Rows that cannot be a relation (unknown type, bad ids), left in place for a person to look at. */
      skipped: z.number().int(),
      nextCursor: z.string().optional(),
    }),
  }),
});
