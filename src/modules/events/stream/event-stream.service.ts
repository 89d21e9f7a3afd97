import type { Principal } from '../../../platform/auth/principal.js';
import type { AppContext } from '../../../platform/context.js';
import { resumeFrom } from '../../../platform/events/index.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { streamFilter } from './stream-filter.js';
import type { StreamOpening } from './stream-session.js';

/** A stream's request: its filters and the last event id the client saw (text of digits, checked by the schema). */
export interface StreamRequest {
  kinds?: string;
  subject?: string;
  lastEventId?: string;
}

export class EventStreamService {
  constructor(private readonly ctx: Pick<AppContext, 'db'>) {}

  /** Where a stream starts, before anything is sent: 422 for filters that select nothing. */
  async prepare(tenant: Tenant, principal: Principal, request: StreamRequest): Promise<StreamOpening> {
    const filter = streamFilter(request.kinds, request.subject);
    const resume = (afterSeq: number | null) => resumeFrom(this.ctx.db, tenant.pbxId, afterSeq);
    const point = await resume(request.lastEventId === undefined ? null : Number(request.lastEventId));
    return { pbxId: tenant.pbxId, principal, filter, point, resume };
  }
}
