/**
 * Address book: the PBX's contacts (global or private), their groups, favourites and blocks, the
 * caller lookup, and spreadsheet imports run by a durable job.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { contactRoutes } from './contacts/contacts.routes.js';
import { contactImportRoutes } from './imports/contact-imports.routes.js';

export async function addressBookRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  await app.register(contactRoutes, { ctx });
  await app.register(contactImportRoutes, { ctx });
}

export { seedAddressBook } from './address-book.seed.js';

/** The import benchmark drives an import the way the upload route does. */
export { ContactImportsService, type UploadPart } from './imports/contact-imports.service.js';
