import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../../platform/context.js';
import { resourceRoutes } from '../../../../http/resource-routes.js';
import type { SettingsRow } from './settings.queries.js';
import { SettingsParams, UpdateWorkforceSettingsBody, WorkforceSettings } from './settings.schemas.js';
import { presentSettings, WorkforceSettingsService } from './settings.service.js';

const READ = { user: true, pbx: true } as const;
const MANAGE = { user: 'admin', pbx: true } as const;

export async function workforceSettingsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new WorkforceSettingsService(ctx);
  const settings = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Workforce: companies, departments, employees'],
    schema: WorkforceSettings,
    present: (rows: SettingsRow[]) => rows.map(presentSettings),
  });

  settings.read('/:pbx_id/workforce-settings', {
    auth: READ,
    operationId: 'getWorkforceSettings',
    summary: 'The workforce settings of the PBX',
    description: 'Readable by every user of the PBX and its PBX API key, since the apps write names and half days by them. `timezone` is the PBX\u2019s.',
    params: SettingsParams,
    load: ({ tenant }) => service.get(tenant),
  });
  settings.update('/:pbx_id/workforce-settings', {
    auth: MANAGE,
    operationId: 'updateWorkforceSettings',
    summary: 'Change the name order or the half-day split',
    description:
      'Administrators and the PBX API key; only the fields sent change. `timezone` is read-only here (it is the PBX\u2019s) and, like any other field, refused with 422 when sent.',
    params: SettingsParams,
    body: UpdateWorkforceSettingsBody,
    run: ({ tenant, body }) => service.update(tenant, body),
  });
}
