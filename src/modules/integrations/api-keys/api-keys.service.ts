import type { Selectable } from 'kysely';
import type { Static } from '@sinclair/typebox';
import type { ApiKeyTable } from '../../../db/schema.js';
import { NotFound, ValidationFailed } from '../../../platform/errors.js';
import type { PageRequest, SortTerm } from '../../../db/paging.js';
import type { AppContext } from '../../../platform/context.js';
import { createApiKey, revokeApiKey } from '../../../platform/auth/api-keys.js';
import type { Tenant } from '../../../platform/tenancy.js';
import type { CreateApiKeyBody } from './api-keys.schemas.js';
import { findIntegrationKey, listIntegrationKeys, type ApiKeyFilters } from './api-keys.queries.js';

export type ApiKeyRow = Selectable<ApiKeyTable>;

/** Integration API keys of a PBX, managed by its administrators. */
export class ApiKeysService {
  constructor(private readonly ctx: AppContext) {}

  list(tenant: Tenant, filters: ApiKeyFilters, sort: SortTerm[], page: PageRequest) {
    return listIntegrationKeys(this.ctx.db, tenant, filters, sort, page);
  }

  async create(tenant: Tenant, userId: string, body: Static<typeof CreateApiKeyBody>) {
    if (body.expires_at && body.expires_at <= this.ctx.clock.now().toISOString()) {
      throw ValidationFailed.field('expires_at', 'The expires at field must be a date in the future.');
    }
    return createApiKey(this.ctx.db, this.ctx.clock, this.ctx.secrets, {
      pbxId: tenant.pbxId,
      kind: 'integration',
      name: body.name,
      scopes: body.scopes,
      createdByUserId: userId,
      expiresAt: body.expires_at ?? null,
    });
  }

  async get(tenant: Tenant, id: string) {
    const row = await findIntegrationKey(this.ctx.db, tenant, id);
    if (!row) throw new NotFound('API key not found.');
    return row;
  }

  /** The token again, for an active key; a revoked key cannot be revealed. */
  async reveal(tenant: Tenant, id: string): Promise<string> {
    const row = await this.get(tenant, id);
    if (row.revoked_at || !row.token_sealed) throw new NotFound('API key not found.');
    return this.ctx.secrets.open(row.token_sealed);
  }

  async revoke(tenant: Tenant, id: string): Promise<void> {
    const row = await this.get(tenant, id);
    await revokeApiKey(this.ctx.db, this.ctx.clock, row.id);
  }
}
