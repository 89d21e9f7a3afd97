import type { FastifyInstance } from 'fastify';
import { resourceRoutes } from '../../../../http/resource-routes.js';
import type { AppContext } from '../../../../platform/context.js';
import { RECURRING_TRANSACTIONS_DOCS } from './recurring-transactions.docs.js';
import { presentRecurringTransaction } from './recurring-transactions.presenter.js';
import { RecurringTransactionsService, type RecurringTransactionRow } from './recurring-transactions.service.js';
import {
  CreateRecurringTransactionBody,
  RecurringTransaction,
  RecurringTransactionListQuery,
  RecurringTransactionParams,
  UpdateRecurringTransactionBody,
} from './recurring-transactions.schemas.js';

/** The contract: the PBX API key is "the only scheme for recurring transactions" (user tokens and other keys: 403 `{message}`). */
const PBX_KEY_ONLY = { pbx: true } as const;

/**
 * Recurring balance transactions: templates whose runs, at the start of each month or year in
 * the PBX's time zone, credit or debit an employee's leave, home-office or overtime balance.
 */
export async function recurringTransactionRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = new RecurringTransactionsService(ctx);
  const templates = resourceRoutes(app, ctx.config.baseUrl, {
    tags: ['Workforce: recurring transactions'],
    docs: RECURRING_TRANSACTIONS_DOCS,
    schema: RecurringTransaction,
    present: (rows: RecurringTransactionRow[]) => rows.map(presentRecurringTransaction),
  });

  templates.list('/recurring-transactions', {
    auth: PBX_KEY_ONLY,
    operationId: 'listRecurringTransactions',
    querystring: RecurringTransactionListQuery,
    defaultSort: [{ field: 'created_at', direction: 'asc' }],
    fetch: ({ tenant, query }, { sort, page }) =>
      service.list(tenant, { employeeId: query['filter[employee_id]'], status: query['filter[status]'] }, sort, page),
  });
  templates.read('/recurring-transactions/:id', {
    auth: PBX_KEY_ONLY,
    operationId: 'getRecurringTransaction',
    params: RecurringTransactionParams,
    envelope: 'flat',
    load: ({ tenant, params }) => service.get(tenant, params.id),
  });
  templates.create('/recurring-transactions', {
    auth: PBX_KEY_ONLY,
    operationId: 'createRecurringTransaction',
    body: CreateRecurringTransactionBody,
    envelope: 'flat',
    run: ({ tenant, principal, body }) => service.create(tenant, principal, body),
  });
  templates.update('/recurring-transactions/:id', {
    auth: PBX_KEY_ONLY,
    operationId: 'updateRecurringTransaction',
    params: RecurringTransactionParams,
    body: UpdateRecurringTransactionBody,
    optionalBody: true,
    envelope: 'flat',
    run: ({ tenant, params, body }) => service.update(tenant, params.id, body),
  });
  templates.action('/recurring-transactions/:id/pause', {
    method: 'POST',
    auth: PBX_KEY_ONLY,
    operationId: 'pauseRecurringTransaction',
    params: RecurringTransactionParams,
    envelope: 'flat',
    run: ({ tenant, params }) => service.pause(tenant, params.id),
  });
  templates.action('/recurring-transactions/:id/resume', {
    method: 'POST',
    auth: PBX_KEY_ONLY,
    operationId: 'resumeRecurringTransaction',
    params: RecurringTransactionParams,
    envelope: 'flat',
    run: ({ tenant, params }) => service.resume(tenant, params.id),
  });
  templates.delete('/recurring-transactions/:id', {
    auth: PBX_KEY_ONLY,
    operationId: 'deleteRecurringTransaction',
    params: RecurringTransactionParams,
    run: ({ tenant, params }) => service.remove(tenant, params.id),
  });
}
