import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { principalOf } from '../../../platform/auth/auth-plugin.js';
import { parseInclude } from '../../../http/include.js';
import { pageRequest, parseSort } from '../../../http/list-query.js';
import { Paginated, paginate } from '../../../http/pagination.js';
import { DataEnvelope } from '../../../http/schema.js';
import { ContactsService } from './contacts.service.js';
import { BlockBody, BlockQuery, Contact, ContactBody, ContactDetailQuery, ContactGroup, ContactListQuery, ContactParams, LookupQuery, type ContactListQueryT } from './contacts.schemas.js';
import { contactGroupRoutes } from '../contact-groups/contact-groups.routes.js';

const tags = ['Contacts'];
/** Contacts accept user tokens and integration keys with the `contacts` scope (global contacts only). */
const CONTACTS = { auth: { user: true, integration: ['contacts'] } } as const;
const USER_ONLY = { auth: { user: true } } as const;
const ContactRef = Type.Ref(Contact);

export async function contactRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new ContactsService(ctx);
  app.addSchema(ContactGroup);
  app.addSchema(Contact);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get('/contacts', {
    config: CONTACTS,
    schema: {
      tags,
      operationId: 'listContacts',
      summary: 'List the address book',
      description: 'Search covers names, company, e-mail and any number (as typed or E.164). Private contacts of other users never appear; API keys see global contacts only.',
      querystring: ContactListQuery,
      response: { 200: Paginated(ContactRef) },
    },
    handler: async (request) => {
      const query = request.query as ContactListQueryT;
      const actor = await service.actorOf(principalOf(request));
      const page = pageRequest(query);
      const { rows, total } = await service.list(
        actor,
        {
          search: query.search as string | undefined,
          groupId: query['filter[group_id]'] as string | undefined,
          isPrivate: query['filter[is_private]'] as boolean | undefined,
          isFavorite: query['filter[is_favorite]'] as boolean | undefined,
          isBlocked: query['filter[is_blocked]'] as boolean | undefined,
          vip: query['filter[vip]'] as boolean | undefined,
          trashed: query['filter[trashed]'] as 'without' | 'with' | 'only' | undefined,
        },
        parseSort(query.sort as string | undefined, [{ field: 'name1', direction: 'asc' }]),
        page,
      );
      const data = await service.present(actor, rows, parseInclude(query.include as string | undefined).has('private_owner'));
      return paginate(data, total, page, `${ctx.config.baseUrl}/contacts`, query);
    },
  });

  r.post('/contacts', {
    config: CONTACTS,
    schema: { tags, operationId: 'createContact', summary: 'Create a contact', body: ContactBody, response: { 201: DataEnvelope(ContactRef) } },
    handler: async (request, reply) => {
      const actor = await service.actorOf(principalOf(request));
      const [data] = await service.present(actor, [await service.create(actor, request.body)]);
      reply.code(201);
      return { data };
    },
  });

  r.get('/contacts/lookup', {
    config: { auth: { user: true, pbx: true, integration: ['contacts'] } },
    schema: {
      tags,
      operationId: 'lookupCaller',
      summary: 'Contacts matching a calling number (caller name on incoming calls)',
      description: 'The number is read in any common format with the PBX country as default region and matched on its E.164 form.',
      querystring: LookupQuery,
      response: { 200: Type.Object({ number: Type.String({ description: 'The number as E.164.' }), data: Type.Array(ContactRef) }) },
    },
    handler: async (request) => {
      const actor = await service.actorOf(principalOf(request));
      const { e164, rows } = await service.lookup(actor, request.query.number);
      return { number: e164, data: await service.present(actor, rows) };
    },
  });

  r.get('/contacts/:contact', {
    config: CONTACTS,
    schema: {
      tags,
      operationId: 'getContact',
      summary: 'One contact (flat, not wrapped in data)',
      description: "A contact that is not visible to the caller (another tenant's, or another user's private one) is refused with 403 and a not-found message.",
      params: ContactParams,
      querystring: ContactDetailQuery,
      response: { 200: ContactRef },
    },
    handler: async (request) => {
      const actor = await service.actorOf(principalOf(request));
      const [contact] = await service.present(actor, [await service.read(actor, request.params.contact)], parseInclude(request.query.include).has('private_owner'));
      return contact;
    },
  });

  r.put('/contacts/:contact', {
    config: CONTACTS,
    schema: {
      tags,
      operationId: 'updateContact',
      summary: 'Replace a contact (name1 required; is_private derived from private_owner_id)',
      params: ContactParams,
      body: ContactBody,
      response: { 200: DataEnvelope(ContactRef) },
    },
    handler: async (request) => {
      const actor = await service.actorOf(principalOf(request));
      const [data] = await service.present(actor, [await service.update(actor, request.params.contact, request.body)]);
      return { data };
    },
  });

  r.delete('/contacts/:contact', {
    config: CONTACTS,
    schema: { tags, operationId: 'deleteContact', summary: 'Move a contact to the trash (restorable)', params: ContactParams, response: { 204: Type.Null() } },
    handler: async (request, reply) => {
      await service.remove(await service.actorOf(principalOf(request)), request.params.contact);
      return reply.code(204).send(null);
    },
  });

  r.post('/contacts/:contact/restore', {
    config: CONTACTS,
    schema: { tags, operationId: 'restoreContact', summary: 'Restore a soft-deleted contact', params: ContactParams, response: { 200: DataEnvelope(ContactRef) } },
    handler: async (request) => {
      const actor = await service.actorOf(principalOf(request));
      const [data] = await service.present(actor, [await service.restore(actor, request.params.contact)]);
      return { data };
    },
  });

  for (const [method, favorite] of [['PUT', true], ['DELETE', false]] as const) {
    r.route({
      method,
      url: '/contacts/:contact/favorite',
      config: USER_ONLY,
      schema: {
        tags,
        operationId: favorite ? 'favoriteContact' : 'unfavoriteContact',
        summary: favorite ? "Add a contact to the caller's favorites" : "Remove a contact from the caller's favorites",
        params: ContactParams,
        response: { 200: DataEnvelope(ContactRef) },
      },
      handler: async (request) => {
        const actor = await service.actorOf(principalOf(request));
        const { contact } = request.params as { contact: string };
        const [data] = await service.present(actor, [await service.setFavorite(actor, contact, favorite)]);
        return { data };
      },
    });
  }

  r.put('/contacts/:contact/block', {
    config: CONTACTS,
    schema: {
      tags,
      operationId: 'blockContact',
      summary: 'Block calls from a contact, for the caller or for the whole PBX',
      description: 'scope=global needs allow_manage_global_contacts (or an integration key); scope=user needs a user token.',
      params: ContactParams,
      body: Type.Optional(BlockBody),
      response: { 200: DataEnvelope(ContactRef) },
    },
    handler: async (request) => {
      const actor = await service.actorOf(principalOf(request));
      const scope = request.body?.scope ?? (actor.viewer.userId ? 'user' : 'global');
      const [data] = await service.present(actor, [await service.setBlocked(actor, request.params.contact, scope, true)]);
      return { data };
    },
  });

  r.delete('/contacts/:contact/block', {
    config: CONTACTS,
    schema: { tags, operationId: 'unblockContact', summary: 'Lift a block (scope user or global)', params: ContactParams, querystring: BlockQuery, response: { 200: DataEnvelope(ContactRef) } },
    handler: async (request) => {
      const actor = await service.actorOf(principalOf(request));
      const scope = request.query.scope ?? (actor.viewer.userId ? 'user' : 'global');
      const [data] = await service.present(actor, [await service.setBlocked(actor, request.params.contact, scope, false)]);
      return { data };
    },
  });

  await app.register(contactGroupRoutes, { ctx });
}

