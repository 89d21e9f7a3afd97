import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { ContactsService } from '../contacts/contacts.service.js';
import type { GroupRow } from '../contacts/contacts.queries.js';
import { ContactGroup } from '../contacts/contacts.schemas.js';
import { ContactGroupsService } from './contact-groups.service.js';
import { ContactGroupBody, ContactGroupListQuery, ContactGroupParams } from './contact-groups.schemas.js';

const CONTACTS = { user: true, integration: ['contacts'] } as const;

/** Registered by contactRoutes, which shares the ContactGroup schema with the contacts' `groups`. */
export async function contactGroupRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const contacts = new ContactsService(ctx);
  const service = new ContactGroupsService(ctx);
  const groups = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Contact groups'],
    schema: ContactGroup,
    scope: ({ principal }) => contacts.actorOf(principal),
    present: (rows: GroupRow[]) => service.present(rows),
  });

  groups.list('/contact-groups', {
    auth: CONTACTS,
    operationId: 'listContactGroups',
    summary: 'List contact groups',
    description:
      'User tokens and integration keys with the contacts scope; every contact group of the PBX, each with the users who see it. ' +
      '`search` matches the name; sorted by name unless `sort` says otherwise.',
    querystring: ContactGroupListQuery,
    defaultSort: [{ field: 'name', direction: 'asc' }],
    fetch: ({ scope, query }, { sort, page }) => service.list(scope, query.search, sort, page),
  });
  groups.create('/contact-groups', {
    auth: CONTACTS,
    operationId: 'createContactGroup',
    summary: 'Create a contact group (needs allow_manage_global_contacts)',
    description:
      'Users with allow_manage_global_contacts and integration keys with the contacts scope (403 for other users). ' +
      'The name must be unused in the PBX (422); the call flows, extension and caller identity named must exist in the PBX, and `users` must be live users of it (422 per field). ' +
      'Answers 201 `{data}`.',
    body: ContactGroupBody,
    run: ({ scope, body }) => service.create(scope, body),
  });
  groups.read('/contact-groups/:group', {
    auth: CONTACTS,
    operationId: 'getContactGroup',
    summary: 'One contact group',
    description:
      'User tokens and integration keys with the contacts scope. Another PBX’s group, or an unknown one, is 404. ' +
      'Answers `{data}` with the users who see the group.',
    params: ContactGroupParams,
    load: ({ scope, params }) => service.get(scope, params.group),
  });
  groups.update('/contact-groups/:group', {
    method: 'PUT',
    auth: CONTACTS,
    operationId: 'updateContactGroup',
    summary: 'Replace a contact group',
    description:
      'Users with allow_manage_global_contacts and integration keys with the contacts scope (403). ' +
      'PUT replaces the group: fields left out are cleared (flags false), and `users` becomes exactly the list sent (empty when left out). ' +
      'Same checks as creating; another PBX’s group is 404. Answers `{data}`.',
    params: ContactGroupParams,
    body: ContactGroupBody,
    run: ({ scope, params, body }) => service.update(scope, params.group, body),
  });
  groups.delete('/contact-groups/:group', {
    auth: CONTACTS,
    operationId: 'deleteContactGroup',
    summary: 'Delete a contact group (its contacts stay)',
    description:
      'Users with allow_manage_global_contacts and integration keys with the contacts scope (403). ' +
      'The group is removed for good; its contacts stay and only leave the group. Another PBX’s group is 404.',
    params: ContactGroupParams,
    run: ({ scope, params }) => service.remove(scope, params.group),
  });
}
