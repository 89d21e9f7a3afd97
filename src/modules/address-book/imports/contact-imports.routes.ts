import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { tenantOf } from '../../../platform/tenancy.js';
import { principalOf } from '../../../platform/auth/auth-plugin.js';
import { requireUser, type Principal } from '../../../platform/auth/principal.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { DataEnvelope } from '../../../http/schema.js';
import { multipartForm, uploadParts, uploadValidatorCompiler } from '../../../http/uploads.js';
import { ContactImport, ImportDetailQuery, ImportListQuery, ImportParams, ImportPreview, ImportUploadForm, MappingsBody } from './contact-imports.schemas.js';
import { ContactImportsService, type ImportOwner } from './contact-imports.service.js';
import { presentImport, type ImportRow } from './contact-imports.presenter.js';

const tags = ['Contact imports'];
/** Imports belong to a user: user tokens only. */
const USER = { user: true } as const;
const ImportRef = Type.Ref(ContactImport);
/** The parts an upload takes: the file and up to this many option fields. */
const FORM_LIMITS = { fields: 20, files: 1 };

/** Imports belong to the user who uploaded them. */
function importOwnerOf(principal: Principal): ImportOwner {
  const user = requireUser(principal);
  return { tenant: tenantOf(user), userId: user.userId };
}

export async function contactImportRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new ContactImportsService(ctx);
  // Multipart only here: the rest of the API takes JSON alone.
  await app.register(multipart, { limits: { fileSize: ctx.config.importMaxBytes, ...FORM_LIMITS, fieldSize: 4096 }, throwFileSizeLimit: true });
  const imports = resourceRoutes(app, ctx.config.baseUrl, {
    tags,
    schema: ContactImport,
    scope: ({ principal }) => importOwnerOf(principal),
    present: (rows: ImportRow[], { include }) => Promise.all(rows.map((row) => service.withRelations(row, include))),
  });
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post('/contacts/imports', {
    config: { auth: USER },
    validatorCompiler: uploadValidatorCompiler(app),
    schema: {
      tags,
      operationId: 'createContactImport',
      summary: 'Upload a CSV, XLS or XLSX file to import contacts',
      description: [
        `User tokens only; the import belongs to the calling user. multipart/form-data with one \`file\` part (at most ${ctx.config.importMaxBytes} bytes, IMPORT_MAX_BYTES; larger files get 413) and optional fields:`,
        '`header_row_position` (1-based, default 1; `null` for no header), `sheet_index` (0-based, spreadsheets), `delimiter` (one character or tab/comma/semicolon/pipe; detected when omitted),',
        '`enclosure` (default `"`), `input_encoding` (detected when omitted: UTF-8, UTF-16 or Windows-1252), `skip_on_error`, `notify_owner_by_email` (booleans), `webhook_url` (http(s); private addresses refused).',
        'The type is read from the content: a file named .xlsx that is not a spreadsheet is refused with 422, and so is an upload cut short (no closing boundary).',
        'The import starts `incomplete`: preview it, save a mapping, then confirm.',
      ].join(' '),
      body: multipartForm(ImportUploadForm),
      response: { 201: DataEnvelope(ImportRef), 413: { $ref: 'MessageError#' }, 415: { $ref: 'MessageError#' } },
    },
    handler: async (request, reply) => {
      const row = await service.create(importOwnerOf(principalOf(request)), uploadParts(request, FORM_LIMITS, 'Send the file as multipart/form-data.'));
      reply.code(201);
      return { data: presentImport(row) };
    },
  });

  r.get('/contacts/imports/:id/preview', {
    config: { auth: USER },
    schema: {
      tags,
      operationId: 'previewContactImport',
      summary: 'Detected columns and the first rows of the file',
      description:
        'User tokens only; only the caller’s own imports (another user’s is 404). ' +
        'Answers `{data}`: the detected file type, delimiter, encoding and header row, the sheet names of a workbook, the columns by 0-based index, the first data rows (up to 10) and the contact fields a column can be mapped to. ' +
        '404 as well when the stored file is no longer there.',
      params: ImportParams,
      response: { 200: DataEnvelope(ImportPreview) },
    },
    handler: async (request) => ({ data: await service.preview(importOwnerOf(principalOf(request)), request.params.id) }),
  });

  imports.list('/contacts/imports', {
    auth: USER,
    operationId: 'listContactImports',
    summary: "The caller's contact imports, newest first",
    description:
      'User tokens only: the imports the calling user uploaded, newest first unless `sort` says otherwise; `filter[status]` narrows the page. No `search`.',
    querystring: ImportListQuery,
    defaultSort: [{ field: 'created_at', direction: 'desc' }],
    fetch: ({ scope, query }, { sort, page }) => service.list(scope, query['filter[status]'], sort, page),
  });
  imports.read('/contacts/imports/:id', {
    auth: USER,
    operationId: 'getContactImport',
    summary: "One of the caller's imports (flat, not wrapped in data)",
    description: "include=records,errors embeds what was imported and the failed rows. Another user's import is 404.",
    params: ImportParams,
    querystring: ImportDetailQuery,
    envelope: 'flat',
    load: ({ scope, params }) => service.get(scope, params.id),
  });
  imports.action('/contacts/imports/:id/mappings', {
    method: 'PUT',
    auth: USER,
    operationId: 'saveContactImportMappings',
    summary: 'Save which column fills which contact field (can_confirm becomes true)',
    description:
      'User tokens only; only the caller\u2019s own imports (404). Only an incomplete import can be mapped (422 otherwise); the list replaces any mapping saved before. ' +
      'name1 must be mapped. phone_number (with subfields label and type) and group may be mapped several times, any other field once; columns must exist in the file (422). Answers `{data}` with the import.',
    params: ImportParams,
    body: MappingsBody,
    run: ({ scope, params, body }) => service.saveMappings(scope, params.id, body.mappings),
  });
  imports.action('/contacts/imports/:id/confirm', {
    method: 'POST',
    status: 202,
    auth: USER,
    operationId: 'confirmContactImport',
    summary: 'Start the import (incomplete -> pending; a background job processes it)',
    description:
      'User tokens only; only the caller’s own imports (404). ' +
      'Moves an incomplete import with a saved mapping to pending and queues the background job that creates the contacts; answers 202 `{data}` with the import. ' +
      'An import already confirmed, or one without a mapping, is 422. Progress shows in `status`; with `webhook_url` the lifecycle events are delivered there.',
    params: ImportParams,
    run: ({ scope, params }) => service.confirm(scope, params.id),
  });
  imports.delete('/contacts/imports/:id', {
    auth: USER,
    operationId: 'deleteContactImport',
    summary: 'Delete an import with its records, errors and file (contacts stay)',
    description:
      'User tokens only; only the caller’s own imports (another user’s is 404). ' +
      'Deletes the import for good, in any status, with its records, errors and stored file; contacts it already created stay.',
    params: ImportParams,
    run: ({ scope, params }) => service.remove(scope, params.id),
  });
}
