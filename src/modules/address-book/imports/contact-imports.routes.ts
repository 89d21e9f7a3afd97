import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { tenantOf } from '../../../platform/tenancy.js';
import { userPrincipalOf } from '../../../platform/auth/auth-plugin.js';
import { ClientError } from '../../../platform/errors.js';
import { parseInclude } from '../../../http/include.js';
import { pageRequest, parseSort } from '../../../http/list-query.js';
import { Paginated, paginate } from '../../../http/pagination.js';
import { DataEnvelope } from '../../../http/schema.js';
import { ContactImport, ImportDetailQuery, ImportListQuery, ImportParams, ImportPreview, MappingsBody } from './contact-imports.schemas.js';
import type { ImportStatus } from '../address-book.tables.js';
import { ContactImportsService, type ImportOwner, type UploadPart } from './contact-imports.service.js';
import { presentImport } from './contact-imports.presenter.js';

const tags = ['Contact imports'];
/** Imports belong to a user: user tokens only. */
const USER = { auth: { user: true } } as const;
const ImportRef = Type.Ref(ContactImport);

function ownerOf(request: FastifyRequest): ImportOwner {
  const principal = userPrincipalOf(request);
  return { tenant: tenantOf(principal), userId: principal.userId };
}

async function* uploadParts(request: FastifyRequest): AsyncGenerator<UploadPart> {
  if (!request.isMultipart()) throw new ClientError(415, 'Send the file as multipart/form-data.');
  for await (const part of request.parts()) {
    if (part.type === 'file') yield { type: 'file', fieldname: part.fieldname, filename: part.filename, file: part.file };
    else yield { type: 'field', fieldname: part.fieldname, value: String(part.value ?? '') };
  }
}

export async function contactImportRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new ContactImportsService(ctx);
  // Multipart only here: the rest of the API takes JSON alone.
  await app.register(multipart, { limits: { fileSize: ctx.config.importMaxBytes, files: 1, fields: 20, fieldSize: 4096 }, throwFileSizeLimit: true });
  app.addSchema(ContactImport);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post('/contacts/imports', {
    config: USER,
    schema: {
      tags,
      operationId: 'createContactImport',
      summary: 'Upload a CSV, XLS or XLSX file to import contacts',
      description: [
        `multipart/form-data with one \`file\` part (at most ${ctx.config.importMaxBytes} bytes, IMPORT_MAX_BYTES; larger files get 413) and optional fields:`,
        '`header_row_position` (1-based, default 1; `null` for no header), `sheet_index` (0-based, spreadsheets), `delimiter` (one character or tab/comma/semicolon/pipe; detected when omitted),',
        '`enclosure` (default `"`), `input_encoding` (detected when omitted: UTF-8, UTF-16 or Windows-1252), `skip_on_error`, `notify_owner_by_email` (booleans), `webhook_url` (http(s); private addresses refused).',
        'The type is read from the content: a file named .xlsx that is not a spreadsheet is refused with 422. The import starts `incomplete`: preview it, save a mapping, then confirm.',
      ].join(' '),
      consumes: ['multipart/form-data'],
      response: { 201: DataEnvelope(ImportRef) },
    },
    handler: async (request, reply) => {
      const row = await service.create(ownerOf(request), uploadParts(request));
      reply.code(201);
      return { data: presentImport(row) };
    },
  });

  r.get('/contacts/imports', {
    config: USER,
    schema: { tags, operationId: 'listContactImports', summary: "The caller's contact imports, newest first", querystring: ImportListQuery, response: { 200: Paginated(ImportRef) } },
    handler: async (request) => {
      const query = request.query as { page?: number; perPage?: number; sort?: string; 'filter[status]'?: ImportStatus };
      const page = pageRequest(query);
      const { rows, total } = await service.list(ownerOf(request), query['filter[status]'], parseSort(query.sort, [{ field: 'created_at', direction: 'desc' }]), page);
      return paginate(rows.map((row) => presentImport(row)), total, page, `${ctx.config.baseUrl}/contacts/imports`, query);
    },
  });

  r.get('/contacts/imports/:id', {
    config: USER,
    schema: {
      tags,
      operationId: 'getContactImport',
      summary: 'One of the caller\'s imports (flat, not wrapped in data)',
      description: "include=records,errors embeds what was imported and the failed rows. Another user's import is 404.",
      params: ImportParams,
      querystring: ImportDetailQuery,
      response: { 200: ImportRef },
    },
    handler: async (request) => service.withRelations(await service.get(ownerOf(request), request.params.id), parseInclude(request.query.include)),
  });

  r.get('/contacts/imports/:id/preview', {
    config: USER,
    schema: { tags, operationId: 'previewContactImport', summary: 'Detected columns and the first rows of the file', params: ImportParams, response: { 200: DataEnvelope(ImportPreview) } },
    handler: async (request) => ({ data: await service.preview(ownerOf(request), request.params.id) }),
  });

  r.put('/contacts/imports/:id/mappings', {
    config: USER,
    schema: {
      tags,
      operationId: 'saveContactImportMappings',
      summary: 'Save which column fills which contact field (can_confirm becomes true)',
      description: 'name1 must be mapped. phone_number may be mapped several times, with subfields label and type.',
      params: ImportParams,
      body: MappingsBody,
      response: { 200: DataEnvelope(ImportRef) },
    },
    handler: async (request) => ({ data: presentImport(await service.saveMappings(ownerOf(request), request.params.id, request.body.mappings)) }),
  });

  r.post('/contacts/imports/:id/confirm', {
    config: USER,
    schema: { tags, operationId: 'confirmContactImport', summary: 'Start the import (incomplete -> pending; a background job processes it)', params: ImportParams, response: { 202: DataEnvelope(ImportRef) } },
    handler: async (request, reply) => {
      const row = await service.confirm(ownerOf(request), request.params.id);
      reply.code(202);
      return { data: presentImport(row) };
    },
  });

  r.delete('/contacts/imports/:id', {
    config: USER,
    schema: { tags, operationId: 'deleteContactImport', summary: 'Delete an import with its records, errors and file (contacts stay)', params: ImportParams, response: { 204: Type.Null() } },
    handler: async (request, reply) => {
      await service.remove(ownerOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  });
}
