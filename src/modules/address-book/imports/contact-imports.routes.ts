import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { DataEnvelope } from '../../../http/schema.js';
import { uploadParts } from '../../../http/uploads.js';
import { contactImportsDocs } from './contact-imports.docs.js';
import { ContactImport, ImportDetailQuery, ImportListQuery, ImportParams, ImportPreview, ImportUploadForm, MappingsBody } from './contact-imports.schemas.js';
import { ContactImportsService, type ImportOwner } from './contact-imports.service.js';
import { presentImport, type ImportRow } from './contact-imports.presenter.js';

/** Imports belong to a user: user tokens only. */
const USER = { user: true } as const;
const ImportRef = Type.Ref(ContactImport);
/** The parts an upload takes: the file and up to this many option fields. */
const FORM_LIMITS = { fields: 20, files: 1 };

export async function contactImportRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new ContactImportsService(ctx);
  // Multipart only here: the rest of the API takes JSON alone.
  await app.register(multipart, { limits: { fileSize: ctx.config.importMaxBytes, ...FORM_LIMITS, fieldSize: 4096 }, throwFileSizeLimit: true });
  const imports = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Contact imports'],
    docs: contactImportsDocs(ctx.config.importMaxBytes),
    schema: ContactImport,
    // Imports belong to the user who uploaded them.
    scope: ({ tenant, user }): ImportOwner => ({ tenant, userId: user.userId }),
    present: (rows: ImportRow[], { include }) => Promise.all(rows.map((row) => service.withRelations(row, include))),
  });

  imports.route('/contacts/imports', {
    method: 'POST',
    auth: USER,
    operationId: 'createContactImport',
    upload: ImportUploadForm,
    response: { 201: DataEnvelope(ImportRef), 413: { $ref: 'MessageError#' }, 415: { $ref: 'MessageError#' } },
    handle: async ({ scope, request, reply }) => {
      const row = await service.create(scope, uploadParts(request, FORM_LIMITS, 'Send the file as multipart/form-data.'));
      reply.code(201);
      return { data: presentImport(row) };
    },
  });

  imports.route('/contacts/imports/:id/preview', {
    method: 'GET',
    auth: USER,
    operationId: 'previewContactImport',
    params: ImportParams,
    response: { 200: DataEnvelope(ImportPreview) },
    handle: async ({ scope, params }) => ({ data: await service.preview(scope, params.id) }),
  });

  imports.list('/contacts/imports', {
    auth: USER,
    operationId: 'listContactImports',
    querystring: ImportListQuery,
    defaultSort: [{ field: 'created_at', direction: 'desc' }],
    fetch: ({ scope, query }, { sort, page }) => service.list(scope, query['filter[status]'], sort, page),
  });
  imports.read('/contacts/imports/:id', {
    auth: USER,
    operationId: 'getContactImport',
    params: ImportParams,
    querystring: ImportDetailQuery,
    envelope: 'flat',
    load: ({ scope, params }) => service.get(scope, params.id),
  });
  imports.action('/contacts/imports/:id/mappings', {
    method: 'PUT',
    auth: USER,
    operationId: 'saveContactImportMappings',
    params: ImportParams,
    body: MappingsBody,
    run: ({ scope, params, body }) => service.saveMappings(scope, params.id, body.mappings),
  });
  imports.action('/contacts/imports/:id/confirm', {
    method: 'POST',
    status: 202,
    auth: USER,
    operationId: 'confirmContactImport',
    idempotent: true,
    params: ImportParams,
    run: ({ scope, params }) => service.confirm(scope, params.id),
  });
  imports.delete('/contacts/imports/:id', {
    auth: USER,
    operationId: 'deleteContactImport',
    params: ImportParams,
    run: ({ scope, params }) => service.remove(scope, params.id),
  });
}
