import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers.js';
import { absenceFixtures, type TimeSetup } from '../../../test/absence-fixtures.js';

/**
 * Contract rule 5: the page size is `per_page` on the paginated contract list (user-companies)
 * and `perPage` on the generic lists, the workforce's included; each refuses the other spelling.
 */
describe('workforce lists: the page-size spelling', () => {
  let s: TimeSetup;
  const t = useTestApp({ env: { RATE_LIMIT_PER_MINUTE: '100000', JOB_WORKER: 'false' } });
  beforeAll(async () => {
    s = await f.timeTenant();
  });
  const f = absenceFixtures(() => t);

  /** The nine generic workforce lists; recurring transactions take the PBX key only. */
  const lists = (): Array<[string, string]> => [
    [`/${s.tenant.pbxId}/schedule-management`, s.admin.token],
    ['/recurring-transactions', s.pbxKey],
    [`/${s.tenant.pbxId}/absence-types`, s.admin.token],
    [`/${s.tenant.pbxId}/work-shifts`, s.admin.token],
    [`/${s.tenant.pbxId}/holidays`, s.admin.token],
    [`/${s.tenant.pbxId}/companies`, s.admin.token],
    [`/${s.tenant.pbxId}/departments`, s.admin.token],
    [`/${s.tenant.pbxId}/employees`, s.admin.token],
    [`/${s.tenant.pbxId}/user/${s.employee.id}/work-shift-assignments`, s.admin.token],
  ];

  it('each takes perPage (and its page links carry it) and refuses per_page with 422 naming perPage', async () => {
    for (const [path, token] of lists()) {
      const paged = await f.call('GET', `${path}?perPage=1`, token);
      expect(paged.statusCode, `${path} ${paged.body}`).toBe(200);
      const body = paged.json<{ meta: { per_page: number }; links: { first: string } }>();
      expect(body.meta.per_page, path).toBe(1);
      expect(body.links.first, path).toBe(`http://pbx.test/api/v1${path}?perPage=1&page=1`);

      const refused = await f.call('GET', `${path}?per_page=1`, token);
      expect(refused.statusCode, `${path} ${refused.body}`).toBe(422);
      expect(refused.json<{ errors: unknown }>().errors, path).toEqual({ per_page: [expect.stringContaining('the page size is perPage')] });
    }
  });

  it('the contract list (user-companies) keeps per_page and refuses perPage', async () => {
    const path = `/${s.tenant.pbxId}/user/${s.employee.id}/user-companies`;
    expect((await f.call('GET', `${path}?per_page=1`, s.admin.token)).statusCode).toBe(200);
    const refused = await f.call('GET', `${path}?perPage=1`, s.admin.token);
    expect(refused.statusCode).toBe(422);
    expect(refused.json<{ errors: unknown }>().errors).toEqual({ perPage: [expect.stringContaining('the page size is per_page')] });
  });
});
