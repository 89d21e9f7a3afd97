import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../../platform/context.js';
import { resourceRoutes } from '../../../../http/resource-routes.js';
import { SETTINGS_DOCS } from './settings.docs.js';
import { presentSettings } from './settings.presenter.js';
import { SettingsParams, UpdateWorkforceSettingsBody, WorkforceSettings } from './settings.schemas.js';
import { WorkforceSettingsService, type SettingsRow } from './settings.service.js';

const READ = { user: true, pbx: true } as const;
const MANAGE = { user: 'admin', pbx: true } as const;

export async function workforceSettingsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new WorkforceSettingsService(ctx);
  const settings = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Workforce: companies, departments, employees'],
    docs: SETTINGS_DOCS,
    schema: WorkforceSettings,
    present: (rows: SettingsRow[]) => rows.map(presentSettings),
  });

  settings.read('/:pbx_id/workforce-settings', {
    auth: READ,
    operationId: 'getWorkforceSettings',
    params: SettingsParams,
    load: ({ tenant }) => service.get(tenant),
  });
  settings.update('/:pbx_id/workforce-settings', {
    auth: MANAGE,
    operationId: 'updateWorkforceSettings',
    params: SettingsParams,
    body: UpdateWorkforceSettingsBody,
    run: ({ tenant, body }) => service.update(tenant, body),
  });
}
