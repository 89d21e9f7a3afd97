import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../platform/context.js';
import { resourceRoutes } from '../../../http/resource-routes.js';
import { DataEnvelope } from '../../../http/schema.js';
import { USER_SETTINGS_TAGS } from '../shared/tags.js';
import { UserParams } from '../users/users.schemas.js';
import { PHONE_BUTTONS_DOCS } from './phone-buttons.docs.js';
import { presentPhoneButton } from './phone-buttons.presenter.js';
import { PhoneButtonsService, type PhoneButtonRow } from './phone-buttons.service.js';
import { CreatePhoneButtonBody, PhoneButton, PhoneButtonParams, PhoneButtonPreview, PhoneButtonQuery, UpdatePhoneButtonBody } from './phone-buttons.schemas.js';

const AUTH = { user: true, pbx: true } as const;

export async function phoneButtonRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new PhoneButtonsService(ctx);
  const buttons = resourceRoutes(app, ctx.config.baseUrl, {
    tags: USER_SETTINGS_TAGS,
    docs: PHONE_BUTTONS_DOCS,
    schema: PhoneButton,
    present: (rows: PhoneButtonRow[]) => rows.map(presentPhoneButton),
  });

  buttons.all('/users/:user/phone-buttons', {
    auth: AUTH,
    operationId: 'listPhoneButtons',
    params: UserParams,
    querystring: PhoneButtonQuery,
    fetch: ({ tenant, principal, params, query }) => service.list(tenant, principal, params.user, query.sip_device_id),
  });
  buttons.create('/users/:user/phone-buttons', {
    auth: AUTH,
    operationId: 'createPhoneButton',
    params: UserParams,
    body: CreatePhoneButtonBody,
    run: ({ tenant, principal, params, body }) => service.create(tenant, principal, params.user, body),
  });
  buttons.read('/users/:user/phone-buttons/:phoneButtonId', {
    auth: AUTH,
    operationId: 'getPhoneButton',
    params: PhoneButtonParams,
    load: ({ tenant, principal, params }) => service.get(tenant, principal, params.user, params.phoneButtonId),
  });
  buttons.update('/users/:user/phone-buttons/:phoneButtonId', {
    auth: AUTH,
    operationId: 'updatePhoneButton',
    params: PhoneButtonParams,
    body: UpdatePhoneButtonBody,
    run: ({ tenant, principal, params, body }) => service.update(tenant, principal, params.user, params.phoneButtonId, body),
  });
  buttons.delete('/users/:user/phone-buttons/:phoneButtonId', {
    auth: AUTH,
    operationId: 'deletePhoneButton',
    params: PhoneButtonParams,
    run: ({ tenant, principal, params }) => service.delete(tenant, principal, params.user, params.phoneButtonId),
  });

  app.addSchema(PhoneButtonPreview);
  buttons.route('/users/:user/phone-buttons/preview-config', {
    method: 'GET',
    auth: AUTH,
    operationId: 'previewPhoneButtons',
    params: UserParams,
    querystring: PhoneButtonQuery,
    response: { 200: DataEnvelope(Type.Ref(PhoneButtonPreview)) },
    handle: async ({ tenant, principal, params, query }) => ({ data: await service.preview(tenant, principal, params.user, query.sip_device_id) }),
  });
}
