import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { CONTACTS_DOCS } from './contacts.docs.js';
import { ContactsService, type ContactRow } from './contacts.service.js';
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
    docs: CONTACTS_DOCS,
    schema: Contact,
    // Who is asking, with the permissions that decide what they see and may change: once per request.
    scope: ({ tenant, principal }) => service.callerOf(tenant, principal),
    present: (rows: ContactRow[], { call, include }) => service.present(call.scope, rows, include.has('private_owner')),
  });

  contacts.list('/contacts', {
    auth: CONTACTS,
    operationId: 'listContacts',
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
    body: ContactBody,
    run: ({ scope, body }) => service.create(scope, body),
  });
  contacts.read('/contacts/:contact', {
    auth: CONTACTS,
    operationId: 'getContact',
    params: ContactParams,
    querystring: ContactDetailQuery,
    envelope: 'flat',
    load: ({ scope, params }) => service.read(scope, params.contact),
  });
  contacts.update('/contacts/:contact', {
    method: 'PUT',
    auth: CONTACTS,
    operationId: 'updateContact',
    params: ContactParams,
    body: ContactBody,
    run: ({ scope, params, body }) => service.update(scope, params.contact, body),
  });
  contacts.delete('/contacts/:contact', {
    auth: CONTACTS,
    operationId: 'deleteContact',
    params: ContactParams,
    run: ({ scope, params }) => service.remove(scope, params.contact),
  });
  contacts.restore('/contacts/:contact/restore', {
    auth: CONTACTS,
    operationId: 'restoreContact',
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
      params: ContactParams,
      run: ({ scope, params }) => service.setFavorite(scope, params.contact, favorite),
    });
  }
  contacts.action('/contacts/:contact/block', {
    method: 'PUT',
    auth: CONTACTS,
    operationId: 'blockContact',
    params: ContactParams,
    body: Type.Optional(BlockBody),
    run: ({ scope, params, body }) => service.setBlocked(scope, params.contact, body?.scope ?? (scope.actor.userId ? 'user' : 'global'), true),
  });
  contacts.action('/contacts/:contact/block', {
    method: 'DELETE',
    auth: CONTACTS,
    operationId: 'unblockContact',
    params: ContactParams,
    querystring: BlockQuery,
    run: ({ scope, params, query }) => service.setBlocked(scope, params.contact, query.scope ?? (scope.actor.userId ? 'user' : 'global'), false),
  });

  contacts.route('/contacts/lookup', {
    method: 'GET',
    auth: { user: true, pbx: true, integration: ['contacts'] },
    operationId: 'lookupCaller',
    querystring: LookupQuery,
    response: {
      200: Type.Object({ number: Type.String({ description: 'The number as E.164.', examples: ['+352621123456'] }), data: Type.Array(Type.Ref(Contact)) }),
    },
    handle: async ({ scope, query }) => {
      const { e164, rows } = await service.lookup(scope, query.number);
      return { number: e164, data: await service.present(scope, rows) };
    },
  });

  await app.register(contactGroupRoutes, { ctx });
}
