/**
 * When each tenant's data last changed, on one monotonic sequence. A cache stamps what it reads
 * with `sequence` taken before the read, and trusts it until its tenant (or everything) changes
 * after that stamp. Changes made by other instances arrive through `apply` (see change-broadcast).
 */
/** Change counters shared between instances (shared-versions.ts, through Redis). */
export interface SharedCounters {
  bump(pbxId: string | null): Promise<void>;
  refresh(pbxId: string | null): Promise<boolean>;
}

export class ChangeTracker {
  /** Counters shared through Redis (several instances), once connected. */
  shared: SharedCounters | null = null;
  private seq = 0;
  private everythingAt = 0;
  private readonly tenantAt = new Map<string, number>();
  private readonly listeners: Array<(pbxId: string | null) => void> = [];

  /** The stamp for a read that starts now. */
  get sequence(): number {
    return this.seq;
  }

  /** Whether the tenant's data (`null`: data of no tenant, such as internal keys) changed after `stamp`. */
  changedSince(pbxId: string | null, stamp: number): boolean {
    if (this.everythingAt > stamp) return true;
    return pbxId !== null && (this.tenantAt.get(pbxId) ?? 0) > stamp;
  }

  /** A change made here: recorded, then announced to the listeners (other instances). `null`: any tenant. */
  markChanged(pbxId: string | null): void {
    this.apply(pbxId);
    for (const listener of this.listeners) listener(pbxId);
  }

  /** A change made elsewhere: recorded only. */
  apply(pbxId: string | null): void {
    this.seq += 1;
    if (pbxId === null) this.everythingAt = this.seq;
    else this.tenantAt.set(pbxId, this.seq);
  }

  /** Before a request trusts cached data of the tenant: catches up with writes of other instances. */
  refresh(pbxId: string | null): Promise<boolean> | false {
    return this.shared ? this.shared.refresh(pbxId) : false;
  }

  onChange(listener: (pbxId: string | null) => void): void {
    this.listeners.push(listener);
  }
}
