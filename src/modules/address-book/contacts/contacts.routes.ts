import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { principalOf } from '../../../platform/auth/auth-plugin.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { ContactsService } from './contacts.service.js';
import type { ContactRow } from './contacts.queries.js';
import {
  BlockBody,
  BlockQuery,
  Contact,
  ContactBody,
  ContactDetailQuery,
  ContactGroup,
  ContactListQuery,
  ContactParams,
  LookupQuery,
} from './contacts.schemas.js';
import { contactGroupRoutes } from '../contact-groups/contact-groups.routes.js';

const tags = ['Contacts'];
/** Contacts accept user tokens and integration keys with the `contacts` scope (global contacts only). */
const CONTACTS = { user: true, integration: ['contacts'] } as const;

export async function contactRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new ContactsService(ctx);
  app.addSchema(ContactGroup);
  const contacts = resourceRoutes(app, ctx.config.baseUrl, {
    tags,
    schema: Contact,
    // Who is asking, with the permissions that decide what they see and may change: once per request.
    scope: ({ principal }) => service.actorOf(principal),
    present: (rows: ContactRow[], { call, include }) => service.present(call.scope, rows, include.has('private_owner')),
  });

  contacts.list('/contacts', {
    auth: CONTACTS,
    operationId: 'listContacts',
    summary: 'List the address book',
    description:
      'Search covers names, company, e-mail and any number (as typed or E.164). Private contacts of other users never appear; API keys see global contacts only.',
    querystring: ContactListQuery,
    defaultSort: [{ field: 'name1', direction: 'asc' }],
    fetch: ({ scope, query }, { sort, page }) =>
      service.list(
        scope,
        {
          search: query.search,
          groupId: query['filter[group_id]'],
          isPrivate: query['filter[is_private]'],
          isFavorite: query['filter[is_favorite]'],
          isBlocked: query['filter[is_blocked]'],
          vip: query['filter[vip]'],
          trashed: query['filter[trashed]'],
        },
        sort,
        page,
      ),
  });
  contacts.create('/contacts', {
    auth: CONTACTS,
    operationId: 'createContact',
    summary: 'Create a contact',
    description:
      'User tokens and integration keys with the contacts scope. ' +
      'A contact is global (private_owner_id null or omitted), which needs a user with allow_manage_global_contacts or an integration key (403 otherwise), or private to the calling user (its own id only, and never with an API key: 422). ' +
      'Numbers are read with the PBX country as default region and stored as typed and as E.164; speed dials are unique per PBX, groups must be contact groups of the PBX, and a handling strategy must name an existing target of its type (all 422 per field). ' +
      'Answers 201 `{data}`.',
    body: ContactBody,
    run: ({ scope, body }) => service.create(scope, body),
  });
  contacts.read('/contacts/:contact', {
    auth: CONTACTS,
    operationId: 'getContact',
    summary: 'One contact (flat, not wrapped in data)',
    description: "A contact that is not visible to the caller (another tenant's, or another user's private one) is refused with 403 and a not-found message.",
    params: ContactParams,
    querystring: ContactDetailQuery,
    envelope: 'flat',
    load: ({ scope, params }) => service.read(scope, params.contact),
  });
  contacts.update('/contacts/:contact', {
    method: 'PUT',
    auth: CONTACTS,
    operationId: 'updateContact',
    summary: 'Replace a contact (name1 required; is_private derived from private_owner_id)',
    description:
      'Same callers and rules as creating. ' +
      'PUT replaces the contact: fields left out are cleared, numbers and groups become exactly the ones sent (numbers already on the contact keep their id). ' +
      'Only the owner may change a private contact, and a global one only a user with allow_manage_global_contacts or an integration key (403). ' +
      'A contact the caller cannot see, or a deleted one, is 404. Answers `{data}`.',
    params: ContactParams,
    body: ContactBody,
    run: ({ scope, params, body }) => service.update(scope, params.contact, body),
  });
  contacts.delete('/contacts/:contact', {
    auth: CONTACTS,
    operationId: 'deleteContact',
    summary: 'Move a contact to the trash (restorable)',
    description:
      'User tokens and integration keys with the contacts scope. ' +
      'Moves the contact to the trash (restore with POST /contacts/{contact}/restore); who may is as for changing it (403). ' +
      'A contact the caller cannot see, or already deleted, is 404.',
    params: ContactParams,
    run: ({ scope, params }) => service.remove(scope, params.contact),
  });
  contacts.restore('/contacts/:contact/restore', {
    auth: CONTACTS,
    operationId: 'restoreContact',
    summary: 'Restore a soft-deleted contact',
    description:
      'User tokens and integration keys with the contacts scope; who may is as for changing the contact (403). ' +
      'Only a contact in the trash that the caller can see can be restored (404 otherwise). Answers `{data}`.',
    params: ContactParams,
    run: ({ scope, params }) => service.restore(scope, params.contact),
  });
  for (const [method, favorite] of [
    ['PUT', true],
    ['DELETE', false],
  ] as const) {
    contacts.action('/contacts/:contact/favorite', {
      method,
      auth: { user: true },
      operationId: favorite ? 'favoriteContact' : 'unfavoriteContact',
      summary: favorite ? "Add a contact to the caller's favorites" : "Remove a contact from the caller's favorites",
      description: favorite
        ? 'User tokens only: favorites belong to the calling user and show as `is_favorite`. Any contact the caller can see may be marked, again without error; a contact it cannot see, or a deleted one, is 404. Answers `{data}` with the contact.'
        : 'User tokens only. Removing a contact that was not a favorite is no error; a contact the caller cannot see, or a deleted one, is 404. Answers `{data}` with the contact.',
      params: ContactParams,
      run: ({ scope, params }) => service.setFavorite(scope, params.contact, favorite),
    });
  }
  contacts.action('/contacts/:contact/block', {
    method: 'PUT',
    auth: CONTACTS,
    operationId: 'blockContact',
    summary: 'Block calls from a contact, for the caller or for the whole PBX',
    description:
      'User tokens and integration keys with the contacts scope. scope=global needs allow_manage_global_contacts (or an integration key), else 403; scope=user needs a user token (422 for an API key). ' +
      'The body may be left out: the scope is then user for a user token, global for a key. Blocking again is no error; a contact the caller cannot see is 404. Answers `{data}` with the contact.',
    params: ContactParams,
    body: Type.Optional(BlockBody),
    run: ({ scope, params, body }) => service.setBlocked(scope, params.contact, body?.scope ?? (scope.viewer.userId ? 'user' : 'global'), true),
  });
  contacts.action('/contacts/:contact/block', {
    method: 'DELETE',
    auth: CONTACTS,
    operationId: 'unblockContact',
    summary: 'Lift a block (scope user or global)',
    description:
      'User tokens and integration keys with the contacts scope. ' +
      '`scope=user` lifts the caller’s own block and needs a user token (422 for an API key); `scope=global` lifts the PBX-wide block and needs allow_manage_global_contacts or an integration key (403). ' +
      'Without `scope`: user for a user token, global for a key. Lifting a block that is not there is no error. Answers `{data}` with the contact.',
    params: ContactParams,
    querystring: BlockQuery,
    run: ({ scope, params, query }) => service.setBlocked(scope, params.contact, query.scope ?? (scope.viewer.userId ? 'user' : 'global'), false),
  });

  app.withTypeProvider<TypeBoxTypeProvider>().get('/contacts/lookup', {
    config: { auth: { user: true, pbx: true, integration: ['contacts'] } },
    schema: {
      tags,
      operationId: 'lookupCaller',
      summary: 'Contacts matching a calling number (caller name on incoming calls)',
      description: 'The number is read in any common format with the PBX country as default region and matched on its E.164 form.',
      querystring: LookupQuery,
      response: {
        200: Type.Object({ number: Type.String({ description: 'The number as E.164.', examples: ['+352621123456'] }), data: Type.Array(Type.Ref(Contact)) }),
      },
    },
    handler: async (request) => {
      const actor = await service.actorOf(principalOf(request));
      const { e164, rows } = await service.lookup(actor, request.query.number);
      return { number: e164, data: await service.present(actor, rows) };
    },
  });

  await app.register(contactGroupRoutes, { ctx });
}
