import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../../../platform/context.js';
import { operationRoutes } from '../../../../http/resource-routes.js';
import { DataEnvelope, Uuid } from '../../../../http/schema.js';
import { NEXT_AVAILABILITY_DOCS } from './next-availability.docs.js';
import { AbsenceRequestsService } from './absence-requests.service.js';
import { NextAvailability } from './absence-requests.schemas.js';

const EmployeeOnlyParams = Type.Object({ employee_id: Uuid({ description: 'The employee (not the user) id.' }) });

/** `GET /user/{employee_id}/next-availability`: when a colleague is next at work, from today. */
export async function nextAvailabilityRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new AbsenceRequestsService(ctx);
  const { route } = operationRoutes(app, { tags: ['Workforce: absences'], docs: NEXT_AVAILABILITY_DOCS });
  route('/user/:employee_id/next-availability', {
    method: 'GET',
    auth: { user: true, pbx: true },
    operationId: 'getNextAvailability',
    params: EmployeeOnlyParams,
    response: {
      200: DataEnvelope(Type.Composite([Type.Object({ employee_id: Uuid({ examples: ['12b55511-74b7-4ef6-b593-b3878fcb0519'] }) }), NextAvailability])),
    },
    handle: async ({ tenant, principal, params }) => ({ data: await service.nextAvailability(tenant, principal, params.employee_id) }),
  });
}
