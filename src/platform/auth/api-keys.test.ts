import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers.js';
import { createTenant } from '../../../test/factories.js';
import { createApiKey, listApiKeys } from './api-keys.js';

describe('API keys as the operator makes and lists them', () => {
  const t = useTestApp();

  const create = (key: Parameters<typeof createApiKey>[3]) => createApiKey(t.ctx.db, t.ctx.clock, t.ctx.secrets, key);

  it('an internal key belongs to a PBX unless it is made operator-wide, explicitly, and then says so', async () => {
    const tenant = await createTenant(t.ctx);
    await expect(create({ pbxId: null, kind: 'internal', name: 'Unbound' })).rejects.toThrow('belongs to a PBX');
    await expect(create({ pbxId: tenant.pbxId, kind: 'internal', name: 'Both', operatorWide: true })).rejects.toThrow('operator-wide');
    await expect(create({ pbxId: null, kind: 'pbx', name: 'Wide PBX key', operatorWide: true })).rejects.toThrow('operator-wide');

    const bound = await create({ pbxId: tenant.pbxId, kind: 'internal', name: 'Softphones' });
    const wide = await create({ pbxId: null, kind: 'internal', name: 'x'.repeat(255), operatorWide: true });
    expect(bound.row).toMatchObject({ pbx_id: tenant.pbxId, name: 'Softphones' });
    expect(wide.row.pbx_id).toBeNull();
    expect(wide.row.name).toMatch(/^\[operator-wide\] x+$/);
    expect(wide.row.name).toHaveLength(255);

    const listed = await listApiKeys(t.ctx.db, { kind: 'internal' });
    expect(listed.find((key) => key.id === bound.row.id)).toMatchObject({ pbx_id: tenant.pbxId, operator_wide: false, scopes: [] });
    expect(listed.find((key) => key.id === wide.row.id)).toMatchObject({ pbx_id: null, operator_wide: true });
    expect(JSON.stringify(listed)).not.toContain(wide.token);
    expect(await listApiKeys(t.ctx.db, { pbxId: tenant.pbxId })).toEqual([expect.objectContaining({ id: bound.row.id })]);
  });
});
