import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { principalOf, tenantOfRequest } from '../../../platform/auth/auth-plugin.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { DataEnvelope } from '../../../http/schema.js';
import { USER_SETTINGS_TAGS } from '../shared/tags.js';
import { UserParams } from '../users/users.schemas.js';
import { PhoneButtonsService, presentPhoneButton, type PhoneButtonRow } from './phone-buttons.service.js';
import { CreatePhoneButtonBody, PhoneButton, PhoneButtonParams, PhoneButtonPreview, PhoneButtonQuery, UpdatePhoneButtonBody } from './phone-buttons.schemas.js';

const AUTH = { user: true, pbx: true } as const;

export async function phoneButtonRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new PhoneButtonsService(ctx);
  const buttons = resourceRoutes(app, ctx.config.baseUrl, {
    tags: USER_SETTINGS_TAGS,
    schema: PhoneButton,
    present: (rows: PhoneButtonRow[]) => rows.map(presentPhoneButton),
  });

  buttons.all('/users/:user/phone-buttons', {
    auth: AUTH,
    operationId: 'listPhoneButtons',
    summary: 'Programmed keys of a user\u2019s phones',
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403); a deleted user, or another PBX’s, is 404. ' +
      'Answers `{data: [...]}` (not paginated) with the programmed keys of all the user’s devices, or of one with `sip_device_id`.',
    params: UserParams,
    querystring: PhoneButtonQuery,
    fetch: ({ tenant, principal, params, query }) => service.list(tenant, principal, params.user, query.sip_device_id),
  });
  buttons.create('/users/:user/phone-buttons', {
    auth: AUTH,
    operationId: 'createPhoneButton',
    summary: 'Program a key',
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403). ' +
      '`sip_device_id` must be a live device of the user, and `position` within the keys of its phone model (a device without a known model has none): 422 otherwise, as for a position already programmed on that device. blf needs an extension number of the PBX as `value`, speed_dial and park a dialable number; the other types take no value (422).',
    params: UserParams,
    body: CreatePhoneButtonBody,
    run: ({ tenant, principal, params, body }) => service.create(tenant, principal, params.user, body),
  });
  buttons.update('/users/:user/phone-buttons/:phoneButtonId', {
    auth: AUTH,
    operationId: 'updatePhoneButton',
    summary: 'Reprogram or move a key',
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403). ' +
      'Only the fields sent change, checked as on creation; changing `type` without `value` clears the value. The device stays the same. ' +
      'A key of another user than the one in the path is 404.',
    params: PhoneButtonParams,
    body: UpdatePhoneButtonBody,
    run: ({ tenant, principal, params, body }) => service.update(tenant, principal, params.user, params.phoneButtonId, body),
  });
  buttons.delete('/users/:user/phone-buttons/:phoneButtonId', {
    auth: AUTH,
    operationId: 'deletePhoneButton',
    summary: 'Clear a key',
    description:
      'A user for itself; another user of the PBX only for an administrator or the PBX key (403). ' +
      'The key is cleared for good; a key of another user than the one in the path is 404.',
    params: PhoneButtonParams,
    run: ({ tenant, principal, params }) => service.delete(tenant, principal, params.user, params.phoneButtonId),
  });

  app.addSchema(PhoneButtonPreview);
  app.withTypeProvider<TypeBoxTypeProvider>().get('/users/:user/phone-buttons/preview-config', {
    config: { auth: AUTH },
    schema: {
      tags: USER_SETTINGS_TAGS,
      operationId: 'previewPhoneButtons',
      summary: 'Every key of the phone model with what it is programmed to',
      description:
        'A user for itself; another user of the PBX only for an administrator or the PBX key (403). ' +
        'For the device given by `sip_device_id` (a device of the user, else 422), or the user’s first device: every key of its phone model in order, with type none for unprogrammed keys. ' +
        'A user without devices gets `{model: null, total_buttons: 0, buttons: []}`. Answers `{data}`.',
      params: UserParams,
      querystring: PhoneButtonQuery,
      response: { 200: DataEnvelope(Type.Ref(PhoneButtonPreview)) },
    },
    handler: async (request) => ({
      data: await service.preview(tenantOfRequest(request), principalOf(request), request.params.user, request.query.sip_device_id),
    }),
  });
}
