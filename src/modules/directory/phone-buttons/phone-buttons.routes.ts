import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { principalOf, tenantOfRequest } from '../../../platform/auth/auth-plugin.js';
import { DataEnvelope } from '../../../http/schema.js';
import { UserParams } from '../users/users.schemas.js';
import { PhoneButtonsService, presentPhoneButton } from './phone-buttons.service.js';
import { CreatePhoneButtonBody, PhoneButton, PhoneButtonParams, PhoneButtonPreview, PhoneButtonQuery, UpdatePhoneButtonBody } from './phone-buttons.schemas.js';

const tags = ['Users: settings, DND, groups, buttons, forwards'];
const AUTH = { auth: { user: true, pbx: true } } as const;

export async function phoneButtonRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new PhoneButtonsService(ctx);
  app.addSchema(PhoneButton);
  app.addSchema(PhoneButtonPreview);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const one = DataEnvelope(Type.Ref(PhoneButton));

  r.get('/users/:user/phone-buttons', {
    config: AUTH,
    schema: { tags, operationId: 'listPhoneButtons', summary: 'Programmed keys of a user\u2019s phones', params: UserParams, querystring: PhoneButtonQuery, response: { 200: DataEnvelope(Type.Array(Type.Ref(PhoneButton))) } },
    handler: async (request) => ({ data: (await service.list(tenantOfRequest(request), principalOf(request), request.params.user, request.query.sip_device_id)).map(presentPhoneButton) }),
  });

  r.get('/users/:user/phone-buttons/preview-config', {
    config: AUTH,
    schema: {
      tags,
      operationId: 'previewPhoneButtons',
      summary: 'Every key of the phone model with what it is programmed to',
      params: UserParams,
      querystring: PhoneButtonQuery,
      response: { 200: DataEnvelope(Type.Ref(PhoneButtonPreview)) },
    },
    handler: async (request) => ({ data: await service.preview(tenantOfRequest(request), principalOf(request), request.params.user, request.query.sip_device_id) }),
  });

  r.post('/users/:user/phone-buttons', {
    config: AUTH,
    schema: { tags, operationId: 'createPhoneButton', summary: 'Program a key', params: UserParams, body: CreatePhoneButtonBody, response: { 201: one } },
    handler: async (request, reply) => {
      const row = await service.create(tenantOfRequest(request), principalOf(request), request.params.user, request.body);
      reply.code(201);
      return { data: presentPhoneButton(row) };
    },
  });

  r.patch('/users/:user/phone-buttons/:phoneButtonId', {
    config: AUTH,
    schema: { tags, operationId: 'updatePhoneButton', summary: 'Reprogram or move a key', params: PhoneButtonParams, body: UpdatePhoneButtonBody, response: { 200: one } },
    handler: async (request) => ({ data: presentPhoneButton(await service.update(tenantOfRequest(request), principalOf(request), request.params.user, request.params.phoneButtonId, request.body)) }),
  });

  r.delete('/users/:user/phone-buttons/:phoneButtonId', {
    config: AUTH,
    schema: { tags, operationId: 'deletePhoneButton', summary: 'Clear a key', params: PhoneButtonParams, response: { 204: Type.Null() } },
    handler: async (request, reply) => {
      await service.delete(tenantOfRequest(request), principalOf(request), request.params.user, request.params.phoneButtonId);
      return reply.code(204).send(null);
    },
  });
}
