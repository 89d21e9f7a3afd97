/**
 * Who may do what to a contact, stated once. Each relation a caller may have to a contact is
 * written as a check on a loaded row and as SQL on `contacts`, side by side; each rule names the
 * relations that allow it. The pure checks serve the reads and the writes (contacts.service.ts),
 * the SQL the list and the caller lookup (contacts.queries.ts), and contact.policy.test.ts proves
 * the two agree on a table of cases.
 *
 * The actor is resolved once per request (the routes' `scope`): a user token acts as its user,
 * managing the PBX's global contacts when the user has `allow_manage_global_contacts`; an
 * integration key (the routes admit it with the `contacts` scope only) manages global contacts
 * and has no user; the PBX's own key (the caller lookup) only reads.
 */
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { DB } from '../../../db/schema.js';
import type { Principal } from '../../../platform/auth/principal.js';

export interface ContactActor {
  /** The user behind a user token; null for an API key, which has no private contacts, favorites or own blocks. */
  userId: string | null;
  /** Manages the PBX's global contacts and its contact groups. */
  managesGlobal: boolean;
}

/** `user`: the token's user in the PBX (its `allow_manage_global_contacts`), undefined when it is not found there. */
export function contactActor(principal: Principal, user: { allow_manage_global_contacts: number } | undefined): ContactActor {
  if (principal.kind === 'user') return { userId: principal.userId, managesGlobal: user?.allow_manage_global_contacts === 1 };
  return { userId: null, managesGlobal: principal.kind === 'integration' };
}

/** A contact as the policy reads it: global (no owner) or private to one user. */
export interface ContactRecord {
  private_owner_id: string | null;
}

type ContactsEb = ExpressionBuilder<DB, 'contacts'>;

interface Relation {
  holds: (actor: ContactActor, contact: ContactRecord) => boolean;
  /** The same as SQL on `contacts`; null where the relation cannot hold for this actor. */
  where: (eb: ContactsEb, actor: ContactActor) => Expression<SqlBool> | null;
}

/** How a caller may stand to a contact. */
const RELATIONS = {
  /** The contact is private to the caller's user. */
  owner: {
    holds: (actor, contact) => actor.userId !== null && contact.private_owner_id === actor.userId,
    where: (eb, actor) => (actor.userId === null ? null : eb('contacts.private_owner_id', '=', actor.userId)),
  },
  /** The contact is global and the caller manages global contacts. */
  globalManager: {
    holds: (actor, contact) => actor.managesGlobal && contact.private_owner_id === null,
    where: (eb, actor) => (actor.managesGlobal ? eb('contacts.private_owner_id', 'is', null) : null),
  },
  /** The contact is global: every caller of the PBX may read it. */
  viewer: {
    holds: (_actor, contact) => contact.private_owner_id === null,
    where: (eb) => eb('contacts.private_owner_id', 'is', null),
  },
} satisfies Record<string, Relation>;
type RelationName = keyof typeof RELATIONS;

interface Rule {
  /** Only a user may: an API key is refused whatever its relation. */
  usersOnly?: boolean;
  /** Only a manager of global contacts may, in one of `relations`. */
  managersOnly?: boolean;
  /** A caller standing in any of these relations is allowed. */
  relations: readonly RelationName[];
}

export const CONTACT_RULES = {
  /** Read it (else 404, or 403 with the not-found message on GET /contacts/{id}, per the contract), and act on it at all. */
  see: { relations: ['viewer', 'owner'] },
  /** Replace, delete or restore it (`editable` in its answer); creating one is editing the contact it makes. */
  edit: { relations: ['owner', 'globalManager'] },
  /** Mark it a favorite: favorites belong to users. */
  favorite: { usersOnly: true, relations: ['viewer', 'owner'] },
  /** Block it for oneself (`scope=user`): blocks of one user belong to users. */
  blockForUser: { usersOnly: true, relations: ['viewer', 'owner'] },
  /** Block it for the whole PBX (`scope=global`), private ones included: managers of global contacts. */
  blockGlobally: { managersOnly: true, relations: ['viewer', 'owner'] },
} satisfies Record<string, Rule>;

function allows(rule: Rule, actor: ContactActor, contact: ContactRecord): boolean {
  if (rule.usersOnly && actor.userId === null) return false;
  if (rule.managersOnly && !actor.managesGlobal) return false;
  return rule.relations.some((name) => RELATIONS[name].holds(actor, contact));
}

export const canSee = (actor: ContactActor, contact: ContactRecord) => allows(CONTACT_RULES.see, actor, contact);
export const canEdit = (actor: ContactActor, contact: ContactRecord) => allows(CONTACT_RULES.edit, actor, contact);
export const canFavorite = (actor: ContactActor, contact: ContactRecord) => allows(CONTACT_RULES.favorite, actor, contact);
export const canBlock = (actor: ContactActor, contact: ContactRecord, scope: 'user' | 'global') =>
  allows(scope === 'user' ? CONTACT_RULES.blockForUser : CONTACT_RULES.blockGlobally, actor, contact);

/** Write a contact owned by `ownerId` (null: global), by POST or by PUT, which replaces the owner too: the caller may edit what it writes. */
export const canCreate = (actor: ContactActor, ownerId: string | null) => canEdit(actor, { private_owner_id: ownerId });

/** Create, change or delete a contact group: groups are PBX-wide, so it is the global-contacts right. */
export const canManageGroups = (actor: ContactActor) => actor.managesGlobal;

/** A rule as SQL on `contacts`: the rows the actor stands to in an allowing relation (none when the actor is refused). */
export function whereAllowed(rule: Rule, eb: ContactsEb, actor: ContactActor): Expression<SqlBool> {
  const refused = (rule.usersOnly && actor.userId === null) || (rule.managersOnly && !actor.managesGlobal);
  const terms = refused ? [] : rule.relations.map((name) => RELATIONS[name].where(eb, actor)).filter((term) => term !== null);
  // eb.or of no term is `1 = 0`: no row.
  return eb.or(terms);
}

/** The contacts the actor sees: the PBX's global ones, and a user's own private ones. */
export const whereVisibleTo = (eb: ContactsEb, actor: ContactActor) => whereAllowed(CONTACT_RULES.see, eb, actor);
