import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { ContactsService } from '../contacts/contacts.service.js';
import { ContactGroup } from '../contacts/contacts.schemas.js';
import { CONTACT_GROUPS_DOCS } from './contact-groups.docs.js';
import { ContactGroupsService, type GroupRow } from './contact-groups.service.js';
import { ContactGroupBody, ContactGroupListQuery, ContactGroupParams } from './contact-groups.schemas.js';

const CONTACTS = { user: true, integration: ['contacts'] } as const;

/** Registered by contactRoutes, which shares the ContactGroup schema with the contacts' `groups`. */
export async function contactGroupRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const contacts = new ContactsService(ctx);
  const service = new ContactGroupsService(ctx);
  const groups = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Contact groups'],
    docs: CONTACT_GROUPS_DOCS,
    schema: ContactGroup,
    scope: ({ tenant, principal }) => contacts.callerOf(tenant, principal),
    present: (rows: GroupRow[]) => service.present(rows),
  });

  groups.list('/contact-groups', {
    auth: CONTACTS,
    operationId: 'listContactGroups',
    querystring: ContactGroupListQuery,
    defaultSort: [{ field: 'name', direction: 'asc' }],
    fetch: ({ scope, query }, { sort, page }) => service.list(scope, query.search, sort, page),
  });
  groups.create('/contact-groups', {
    auth: CONTACTS,
    operationId: 'createContactGroup',
    body: ContactGroupBody,
    run: ({ scope, body }) => service.create(scope, body),
  });
  groups.read('/contact-groups/:group', {
    auth: CONTACTS,
    operationId: 'getContactGroup',
    params: ContactGroupParams,
    load: ({ scope, params }) => service.get(scope, params.group),
  });
  groups.update('/contact-groups/:group', {
    method: 'PUT',
    auth: CONTACTS,
    operationId: 'updateContactGroup',
    params: ContactGroupParams,
    body: ContactGroupBody,
    run: ({ scope, params, body }) => service.update(scope, params.group, body),
  });
  groups.delete('/contact-groups/:group', {
    auth: CONTACTS,
    operationId: 'deleteContactGroup',
    params: ContactGroupParams,
    run: ({ scope, params }) => service.remove(scope, params.group),
  });
}
