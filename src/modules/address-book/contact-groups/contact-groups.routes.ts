import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { principalOf } from '../../../platform/auth/auth-plugin.js';
import { pageRequest, parseSort } from '../../../http/list-query.js';
import { Paginated, paginate } from '../../../http/pagination.js';
import { DataEnvelope } from '../../../http/schema.js';
import { ContactsService } from '../contacts/contacts.service.js';
import { ContactGroupsService } from './contact-groups.service.js';
import { ContactGroupBody, ContactGroupListQuery, ContactGroupParams } from './contact-groups.schemas.js';

const tags = ['Contact groups'];
const CONTACTS = { auth: { user: true, integration: ['contacts'] } } as const;
const GroupRef = Type.Ref('ContactGroup');

/** Registered by contactRoutes, which adds the shared ContactGroup schema. */
export async function contactGroupRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const contacts = new ContactsService(ctx);
  const service = new ContactGroupsService(ctx);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get('/contact-groups', {
    config: CONTACTS,
    schema: { tags, operationId: 'listContactGroups', summary: 'List contact groups', querystring: ContactGroupListQuery, response: { 200: Paginated(GroupRef) } },
    handler: async (request) => {
      const query = request.query as { search?: string; sort?: string; page?: number; perPage?: number };
      const actor = await contacts.actorOf(principalOf(request));
      const page = pageRequest(query);
      const { rows, total } = await service.list(actor, query.search, parseSort(query.sort, [{ field: 'name', direction: 'asc' }]), page);
      return paginate(await service.present(rows), total, page, `${ctx.config.baseUrl}/contact-groups`, query);
    },
  });

  r.post('/contact-groups', {
    config: CONTACTS,
    schema: { tags, operationId: 'createContactGroup', summary: 'Create a contact group (needs allow_manage_global_contacts)', body: ContactGroupBody, response: { 201: DataEnvelope(GroupRef) } },
    handler: async (request, reply) => {
      const actor = await contacts.actorOf(principalOf(request));
      const [data] = await service.present([await service.create(actor, request.body)]);
      reply.code(201);
      return { data };
    },
  });

  r.get('/contact-groups/:group', {
    config: CONTACTS,
    schema: { tags, operationId: 'getContactGroup', summary: 'One contact group', params: ContactGroupParams, response: { 200: DataEnvelope(GroupRef) } },
    handler: async (request) => {
      const actor = await contacts.actorOf(principalOf(request));
      const [data] = await service.present([await service.get(actor, request.params.group)]);
      return { data };
    },
  });

  r.put('/contact-groups/:group', {
    config: CONTACTS,
    schema: { tags, operationId: 'updateContactGroup', summary: 'Replace a contact group', params: ContactGroupParams, body: ContactGroupBody, response: { 200: DataEnvelope(GroupRef) } },
    handler: async (request) => {
      const actor = await contacts.actorOf(principalOf(request));
      const [data] = await service.present([await service.update(actor, request.params.group, request.body)]);
      return { data };
    },
  });

  r.delete('/contact-groups/:group', {
    config: CONTACTS,
    schema: { tags, operationId: 'deleteContactGroup', summary: 'Delete a contact group (its contacts stay)', params: ContactGroupParams, response: { 204: Type.Null() } },
    handler: async (request, reply) => {
      await service.remove(await contacts.actorOf(principalOf(request)), request.params.group);
      return reply.code(204).send(null);
    },
  });
}
