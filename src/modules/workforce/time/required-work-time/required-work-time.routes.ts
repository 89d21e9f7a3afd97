import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../../../../platform/auth/auth-plugin.js';
import type { AppContext, RoutePlugin } from '../../../../platform/context.js';
import { ValidationFailed } from '../../../../platform/errors.js';
import { tenantInPath } from '../../../../platform/tenancy.js';
import { daysInclusive, Day, EmployeeParams } from '../../shared/index.js';
import { ownEmployeeOnly } from '../../organisation/index.js';
import { requiredWorkTime, type AbsenceLedger } from './required-work-time.js';

/** The longest range answered, both ends counted (the contract's limit). */
export const MAX_REQUIRED_WORK_TIME_DAYS = 100;

const RequiredWorkTimeQuery = Type.Object({
  'filter[from]': Day('First day of the range (required).'),
  'filter[to]': Day(`Last day of the range (required, inclusive): not before filter[from], at most ${MAX_REQUIRED_WORK_TIME_DAYS} days counting both ends.`),
});
const RequiredWorkTime = Type.Record(Type.String({ format: 'date' }), Type.Integer({ minimum: 0, description: 'Seconds of work required that day.' }), {
  description: 'Every day of the range, `YYYY-MM-DD` -> seconds (never negative).',
  examples: [{ '2026-01-05': 28800, '2026-01-06': 0 }],
});

/**
 * `GET /{pbx_id}/user/{employee_id}/required-work-time`: a flat object of seconds per day, for the
 * employee itself only. `absences` is what approved absences take (the absences sub-domain's, handed
 * in by workforce/index.ts: time does not import absences, which stand on it).
 */
export const requiredWorkTimeRoutes = (absences: AbsenceLedger): RoutePlugin =>
  async function requiredWorkTimeRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
    app.withTypeProvider<TypeBoxTypeProvider>().get('/:pbx_id/user/:employee_id/required-work-time', {
      config: { auth: { user: true } },
      schema: {
        tags: ['Workforce: required work time'],
        operationId: 'getRequiredWorkTime',
        summary: 'Contracted work time per calendar day (the employee itself only)',
        description:
          'A flat object (no `data` envelope) with every day from filter[from] through filter[to]: 0 outside every contract of the employee; else the seconds of the work-shift assignment ' +
          "covering the day for its ISO weekday (0 with none); a public or tenant holiday of the contract's company (with parallel contracts the stored main one, else the earliest started) " +
          'makes it 0, or half (rounded down to whole seconds) for a half-day holiday; approved absences are then subtracted, never below 0. ' +
          `Both bounds are required (422 otherwise); the range spans at most ${MAX_REQUIRED_WORK_TIME_DAYS} days counting both ends, and filter[to] before filter[from] is 422. ` +
          'Only a user token whose user is linked to this employee (users.employee_id) may ask: any other employee (administrators included), a user without an employee record, ' +
          'an unknown employee id (no existence oracle), another PBX and API keys are 403.',
        params: EmployeeParams,
        querystring: RequiredWorkTimeQuery,
        response: { 200: RequiredWorkTime },
      },
      handler: async (request) => {
        const principal = principalOf(request);
        const tenant = tenantInPath(principal, request.params.pbx_id);
        const employee = await ownEmployeeOnly(ctx.db, tenant, principal, request.params.employee_id);
        const from = request.query['filter[from]'];
        const to = request.query['filter[to]'];
        if (to < from) throw ValidationFailed.field('filter[to]', 'The filter[to] must be a date after or equal to filter[from].');
        if (daysInclusive(from, to) > MAX_REQUIRED_WORK_TIME_DAYS)
          throw ValidationFailed.field('filter[to]', `The range may span at most ${MAX_REQUIRED_WORK_TIME_DAYS} days, both ends counted.`);
        return requiredWorkTime(ctx.db, tenant, employee.id, from, to, absences);
      },
    });
  };
