import type { RouteAuth } from '../platform/auth/principal.js';

/**
 * The README's endpoint tables, written from the routes themselves (their OpenAPI operations and
 * their `config.auth`), so an endpoint's behaviour is described once, in its route's docs, and the
 * README only lists what exists and who may call it.
 *
 * A table sits between `<!-- endpoints: Tag A | Tag B -->` and `<!-- /endpoints -->`, and lists
 * the operations of those OpenAPI tags in the document's order.
 */

interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
}
export interface OpenApiPaths {
  paths: Record<string, Record<string, Operation>>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const BLOCK = /(<!-- endpoints: ([^>]*?) -->\n)[\s\S]*?(<!-- \/endpoints -->)/g;

/** Who may call a route, in the README's words. */
export function whoMayCall(auth: RouteAuth): string {
  if (auth.public) return 'anyone';
  const who: string[] = [];
  if (auth.user === 'admin') who.push('admin');
  else if (auth.user) who.push('user token');
  if (auth.pbx) who.push('PBX key');
  if (auth.integration) who.push(`integration key (${auth.integration.length ? auth.integration.map((scope) => `\`${scope}\``).join(', ') : 'any scope'})`);
  if (auth.pbxServer) who.push('PBX server');
  if (auth.internal) who.push('internal key');
  return who.join(', ');
}

/** One table: the operations of `tags`, each as method and path, who, and its summary. */
export function endpointTable(document: OpenApiPaths, auths: ReadonlyMap<string, RouteAuth>, apiPrefix: string, tags: string[]): string {
  const rows: string[] = [];
  for (const tag of tags) {
    let found = false;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of METHODS) {
        const operation = item[method];
        if (!operation?.tags?.includes(tag)) continue;
        found = true;
        const route = `${method.toUpperCase()} ${apiPrefix}${path.replace(/\{(\w+)\}/g, ':$1')}`;
        const auth = auths.get(route);
        if (!auth) throw new Error(`No route registered for ${route}`);
        rows.push(`| \`${method.toUpperCase()} ${path}\` | ${whoMayCall(auth)} | ${cell(operation.summary ?? '')} |`);
      }
    }
    if (!found) throw new Error(`No operation is tagged "${tag}"`);
  }
  return ['| Method and path | Who | What |', '|---|---|---|', ...rows].join('\n');
}

/** The README with every endpoint table written anew. */
export function withEndpointTables(readme: string, document: OpenApiPaths, auths: ReadonlyMap<string, RouteAuth>, apiPrefix: string): string {
  return readme.replace(BLOCK, (_block, open: string, tags: string, close: string) => {
    const table = endpointTable(
      document,
      auths,
      apiPrefix,
      tags.split('|').map((tag) => tag.trim()),
    );
    return `${open}${table}\n${close}`;
  });
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
