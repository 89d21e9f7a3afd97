import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../../../../platform/auth/auth-plugin.js';
import type { AppContext } from '../../../../platform/context.js';
import { Forbidden, NotFound } from '../../../../platform/errors.js';
import { tenantOf } from '../../../../platform/tenancy.js';
import { DataEnvelope, Uuid } from '../../../../http/schema.js';
import { findEmployee, findSettings, callerEmployee, managesEmployees, tenantToday } from '../../organisation/index.js';
import { NextAvailability } from './absence-requests.schemas.js';
import { nextAvailabilityFromToday } from './next-availability.js';

const EmployeeOnlyParams = Type.Object({ employee_id: Uuid({ description: 'The employee (not the user) id.' }) });

/** `GET /user/{employee_id}/next-availability`: when a colleague is next at work, from today. */
export async function nextAvailabilityRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  app.withTypeProvider<TypeBoxTypeProvider>().get('/user/:employee_id/next-availability', {
    config: { auth: { user: true, pbx: true } },
    schema: {
      tags: ['Workforce: absences'],
      operationId: 'getNextAvailability',
      summary: 'When an employee is next at work, from today',
      description:
        'The tenant is the caller\u2019s (no pbx_id in this path). Anchored at the tenant\u2019s today: the first day, today included, with more than 15 minutes of the employee\u2019s ' +
        'scheduled day left once its accepted absences (including those with a removal pending; home office is work) are counted; pending requests are ignored. ' +
        '`employee_id` echoes the path. A team view: any user with an employee record in the PBX, administrators and the PBX key may ask about any employee of it; ' +
        'a user without an employee record is 403; an unknown or deleted employee (or another tenant\u2019s) 404.',
      params: EmployeeOnlyParams,
      response: {
        200: DataEnvelope(Type.Composite([Type.Object({ employee_id: Uuid({ examples: ['12b55511-74b7-4ef6-b593-b3878fcb0519'] }) }), NextAvailability])),
      },
    },
    handler: async (request) => {
      const principal = principalOf(request);
      const tenant = tenantOf(principal);
      if (!managesEmployees(principal) && !(await callerEmployee(ctx.db, tenant, principal))) throw new Forbidden('You have no employee record.');
      const employee = await findEmployee(ctx.db, tenant, request.params.employee_id);
      if (!employee) throw new NotFound('Employee not found.');
      const [settings, today] = await Promise.all([findSettings(ctx.db, tenant), tenantToday(ctx, tenant)]);
      const next = await nextAvailabilityFromToday(ctx.db, tenant, employee.id, settings?.half_day_split ?? '12:00', today);
      return { data: { employee_id: employee.id, ...next } };
    },
  });
}
