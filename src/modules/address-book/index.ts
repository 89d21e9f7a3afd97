/**
 * Address book: the PBX's contacts (global or private), their groups, favourites and blocks, the
 * caller lookup, and spreadsheet imports run by a durable job.
 */
import type { RoutePlugin } from '../../platform/context.js';
import './address-book.usages.js';
import { contactRoutes } from './contacts/contacts.routes.js';
import { contactImportRoutes } from './imports/contact-imports.routes.js';

/** Each resource's routes (contact groups register with the contacts), registered by modules/index.ts. */
export const addressBookRoutes: RoutePlugin[] = [contactRoutes, contactImportRoutes];

export { seedAddressBook } from './address-book.seed.js';

/** The import benchmark drives an import the way the upload route does. */
export { ContactImportsService, type UploadPart } from './imports/contact-imports.service.js';
/** How a known caller's calls are routed (the route simulator). */
export { callerRoute, type CallerRoute } from './contacts/caller-routing.js';
/** Who shares a contact group with a user (the calls domain's `own_group_only` call history). */
export { groupPeers } from './contact-groups/group-peers.js';
