import { isDeepStrictEqual } from 'node:util';
import type { Kysely } from 'kysely';
import { reusableQuery } from '../../../db/reusable-query.js';
import type { DB } from '../../../db/schema.js';
import type { Tenant } from '../../../platform/tenancy.js';
import { numberDestinations } from '../../directory/index.js';
import { loadRoutingGraph, type RoutingGraph } from './model.js';
import { problemsOf, type RoutingProblem } from './validate.js';

/** The phone numbers validation checks: those that lead into routing, users or extensions. */
export const VALIDATED_DESTINATIONS = ['user', 'extension', 'call_flow', 'ivr', 'queue'] as const;

export type NumberDestination = Awaited<ReturnType<typeof numberDestinations>>[number];

/** The tenant's routing at one version: the graph and the numbers validation checks. Never changed once made. */
export interface RoutingState {
  graph: RoutingGraph;
  numbers: NumberDestination[];
}

interface Entry {
  version: bigint;
  /** Read from the database at once; false for a graph a write patched (its maps' order is not the load's). */
  loaded: boolean;
  state: Promise<RoutingState>;
  /** Found once per entry: in the load's order when `loaded`, else only a set (a write's check). */
  problems?: RoutingProblem[];
}

/** Read on every request of validation and simulation: compiled once per database. */
const versionOf = reusableQuery((db, pbxId: string) => db.selectFrom('routing_versions').select('version').where('pbx_id', '=', pbxId));

/** Tenants whose routing one process keeps (the latest version each); a large tenant's graph is a few MB. */
const MAX_TENANTS = 32;

/**
 * The routing graph cached per tenant and routing version, in this process. The version
 * (`routing_versions`, moved by triggers in the transaction of every change of what the graph
 * reads, whoever writes it) is read with one statement per request, so a graph is served only while
 * it is the tenant's routing: a change by another instance, a job or a seed moves the version, and
 * the next request loads the graph again. Requests that miss at the same time share one load.
 */
export class RoutingCache {
  private readonly entries = new Map<string, Entry>();

  /** The tenant's current routing version; null when it has none (then nothing is cached). */
  async version(db: Kysely<DB>, tenant: Tenant): Promise<bigint | null> {
    const [row] = await versionOf(db, tenant.pbxId);
    return row ? BigInt(row.version) : null;
  }

  /**
   * The tenant's routing as it is now. `loaded`: only a graph read from the database at once
   * (validation's answer lists problems in the order of the load).
   */
  async current(db: Kysely<DB>, tenant: Tenant, options: { loaded?: boolean } = {}): Promise<RoutingState> {
    const version = await this.version(db, tenant);
    if (version === null) return loadRoutingState(db, tenant);
    return this.entryAt(db, tenant, version, options.loaded ?? false).state;
  }

  /** The tenant's routing problems as they are now, found once per version. */
  async problems(db: Kysely<DB>, tenant: Tenant): Promise<RoutingProblem[]> {
    const version = await this.version(db, tenant);
    if (version === null) {
      const state = await loadRoutingState(db, tenant);
      return problemsOf(state.graph, state.numbers);
    }
    const entry = this.entryAt(db, tenant, version, true);
    const state = await entry.state;
    return (entry.problems ??= problemsOf(state.graph, state.numbers));
  }

  /**
   * The state at `version` and its problems (in no particular order), which the caller knows to be
   * the tenant's committed routing (a routing write's own transaction).
   */
  async at(db: Kysely<DB>, tenant: Tenant, version: bigint): Promise<{ state: RoutingState; problems: RoutingProblem[] }> {
    const entry = this.entryAt(db, tenant, version, false);
    const state = await entry.state;
    return { state, problems: (entry.problems ??= problemsOf(state.graph, state.numbers)) };
  }

  /** Keeps the routing a write left, under the version it committed, with its problems. */
  keep(tenant: Tenant, version: bigint, state: RoutingState, problems: RoutingProblem[]): void {
    this.put(tenant.pbxId, { version, loaded: false, state: Promise.resolve(state), problems });
  }

  private entryAt(db: Kysely<DB>, tenant: Tenant, version: bigint, loaded: boolean): Entry {
    const found = this.entries.get(tenant.pbxId);
    if (found && found.version === version && (found.loaded || !loaded)) return found;
    const entry: Entry = { version, loaded: true, state: loadRoutingState(db, tenant) };
    entry.state.catch(() => {
      if (this.entries.get(tenant.pbxId) === entry) this.entries.delete(tenant.pbxId);
    });
    this.put(tenant.pbxId, entry);
    return entry;
  }

  private put(pbxId: string, entry: Entry): void {
    const found = this.entries.get(pbxId);
    // A slower load of an older version never replaces a newer one.
    if (found && found.version > entry.version) return;
    this.entries.delete(pbxId);
    if (this.entries.size >= MAX_TENANTS) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(pbxId, entry);
  }
}

/** The tenant's routing read from the database (one round trip per table, in parallel). */
export async function loadRoutingState(db: Kysely<DB>, tenant: Tenant): Promise<RoutingState> {
  const [graph, numbers] = await Promise.all([loadRoutingGraph(db, tenant), numberDestinations(db, tenant, VALIDATED_DESTINATIONS)]);
  return { graph, numbers };
}

const caches = new WeakMap<Kysely<DB>, RoutingCache>();

/** The routing cache of a database handle (each app, and each test's database, has its own). */
export function routingCache(db: Kysely<DB>): RoutingCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new RoutingCache()));
  return cache;
}

/** A graph in a form that compares equal whatever the order of its maps (the test runner's check of patched graphs). */
export function comparableState(state: RoutingState): unknown {
  const sorted = <V>(map: Map<string, V>, value: (v: V) => unknown = (v) => v) =>
    [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, value(v)]);
  const { graph } = state;
  return {
    flows: sorted(graph.flows, ({ byKey: _byKey, ...flow }) => flow),
    ivrs: sorted(graph.ivrs, (ivr) => ({ ...ivr, steps: sorted(ivr.steps) })),
    queues: sorted(graph.queues),
    known: Object.fromEntries(Object.entries(graph.known).map(([kind, map]) => [kind, sorted(map)])),
    soundTypes: sorted(graph.soundTypes),
    users: sorted(graph.users),
    extensions: sorted(graph.extensions),
    country: graph.country,
    timezone: graph.timezone,
    halfDaySplit: graph.halfDaySplit,
    numbers: [...state.numbers].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
  };
}

export const sameState = (a: RoutingState, b: RoutingState): boolean => isDeepStrictEqual(comparableState(a), comparableState(b));
