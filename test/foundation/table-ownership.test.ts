import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Each table has one owner: the domain whose `<domain>.tables.ts` declares it (issue #36; in the
 * workforce, the sub-domain whose `<sub>.tables.ts` does). Only the owner's code names the table in
 * SQL; another domain calls the owner's exported functions (its `index.ts`) instead, so a table's
 * columns, indexes and invariants can change in one domain.
 *
 * Tables declared below the domains, in `db/` (pbxes, users, settings, tokens, API keys, one-time
 * secrets) and `platform/` (jobs, webhooks, leases, audit events), are the layers' and shared by
 * every domain, as the layers' code is: every domain's rows belong to a PBX and point at its users,
 * and the platform's tables are written through platform functions that domains call in their own
 * transactions.
 *
 * The scan reads every non-test file of src/modules/ with the TypeScript parser: Kysely calls that
 * name a table (`selectFrom`, `insertInto`, `updateTable`, `deleteFrom`, `replaceInto`, `mergeInto`,
 * the joins, `using`; `'table as alias'` and arrays included) and the `from`/`join`/`into`/`update`
 * of raw `sql` templates.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');

/**
 * The exceptions, each with why. Key: `<file> -> <table>`. Keep it short: an entry here is a table
 * read or written behind its owner's back.
 */
const ALLOWED: Record<string, string> = {};

const TABLE_METHODS = new Set([
  'selectFrom',
  'insertInto',
  'updateTable',
  'deleteFrom',
  'replaceInto',
  'mergeInto',
  'innerJoin',
  'leftJoin',
  'rightJoin',
  'fullJoin',
  'crossJoin',
  'using',
]);

function filesUnder(dir: string, keep: (file: string) => boolean): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((file) => join(dir, file))
    .filter(keep)
    .sort();
}

const parse = (file: string) => ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
const posix = (file: string) => relative(ROOT, file).split(sep).join('/');

/**
 * The domain a file of src/ belongs to, or 'platform' for db/ and platform/. The workforce's
 * sub-domains own their tables as domains do: a file under `workforce/<sub>/` is `workforce/<sub>`.
 */
function ownerOf(file: string): string {
  const path = posix(file);
  const domain = /^src\/modules\/(workforce\/[^/]+(?=\/)|[^/]+)\//.exec(path);
  return domain ? domain[1] : 'platform';
}

/** Each table of `DB`, and who declares it (the members of the `…Tables` interfaces of the table files). */
function tableOwners(): Map<string, string> {
  const owners = new Map<string, string>();
  for (const file of filesUnder(SRC, (f) => f.endsWith('.tables.ts'))) {
    const source = parse(file);
    source.forEachChild((node) => {
      if (!ts.isInterfaceDeclaration(node) || !node.name.text.endsWith('Tables')) return;
      for (const member of node.members) {
        if (!ts.isPropertySignature(member) || !ts.isIdentifier(member.name)) continue;
        const table = member.name.text;
        const before = owners.get(table);
        if (before !== undefined && before !== ownerOf(file)) throw new Error(`${table} is declared by ${before} and ${ownerOf(file)}`);
        owners.set(table, ownerOf(file));
      }
    });
  }
  return owners;
}

interface TableUse {
  file: string;
  line: number;
  domain: string;
  table: string;
}

/** The table a Kysely argument names: `'calls'`, `'calls as c'`. */
const tableOfArgument = (text: string) =>
  text
    .trim()
    .split(/\s+as\s+/i)[0]
    .trim();

/** The string literals of a union type (`'a' | 'b'`, or a type alias of the file naming one). */
function literalsOfType(source: ts.SourceFile, type: ts.TypeNode | undefined): string[] | undefined {
  if (!type) return undefined;
  if (ts.isLiteralTypeNode(type) && ts.isStringLiteral(type.literal)) return [type.literal.text];
  if (ts.isUnionTypeNode(type)) {
    const parts = type.types.map((part) => literalsOfType(source, part));
    return parts.every((part) => part !== undefined) ? parts.flat() : undefined;
  }
  if (ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName)) {
    const name = type.typeName.text;
    const alias = source.statements.find((s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === name);
    return literalsOfType(source, alias?.type);
  }
  return undefined;
}

/** The tables a table-name parameter may hold, read from its declared type (`table: 'users' | 'extensions'`). */
function literalsOfParameter(source: ts.SourceFile, name: ts.Identifier): string[] | undefined {
  for (let node: ts.Node | undefined = name.parent; node; node = node.parent) {
    if (!ts.isFunctionLike(node)) continue;
    const parameter = node.parameters.find((p) => ts.isIdentifier(p.name) && p.name.text === name.text);
    if (parameter) return literalsOfType(source, parameter.type);
  }
  return undefined;
}

function tableUses(file: string, known: Map<string, string>): { uses: TableUse[]; dynamic: string[] } {
  const source = parse(file);
  const uses: TableUse[] = [];
  const dynamic: string[] = [];
  const domain = ownerOf(file);
  const at = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const use = (node: ts.Node, table: string) => uses.push({ file: posix(file), line: at(node), domain, table });
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && TABLE_METHODS.has(node.expression.name.text)) {
      const [first] = node.arguments;
      const names = first && ts.isArrayLiteralExpression(first) ? [...first.elements] : first ? [first] : [];
      for (const name of names) {
        if (ts.isStringLiteralLike(name)) use(name, tableOfArgument(name.text));
        else if (ts.isIdentifier(name)) {
          const tables = literalsOfParameter(source, name);
          if (tables) for (const table of tables) use(name, table);
          else dynamic.push(`${posix(file)}:${at(name)}`);
        }
        // A sub-query, an alias of one (`.as('x')`) or a callback names its tables where it is built.
        else if (!ts.isCallExpression(name) && !ts.isArrowFunction(name) && !ts.isFunctionExpression(name)) dynamic.push(`${posix(file)}:${at(name)}`);
      }
    }
    if (ts.isTaggedTemplateExpression(node) && /^sql\b/.test(node.tag.getText(source))) {
      const template = node.template;
      const texts = ts.isNoSubstitutionTemplateLiteral(template)
        ? [template.text]
        : [template.head.text, ...template.templateSpans.map((span) => span.literal.text)];
      for (const text of texts) {
        for (const match of text.matchAll(/\b(?:from|join|into|update)\s+([a-z_][a-z0-9_]*)/gi)) {
          if (known.has(match[1])) use(node, match[1]);
        }
      }
    }
    node.forEachChild(visit);
  };
  visit(source);
  return { uses, dynamic };
}

describe('table ownership (#36)', () => {
  const owners = tableOwners();
  const files = filesUnder(join(SRC, 'modules'), (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  const scanned = files.map((file) => tableUses(file, owners));
  const uses = scanned.flatMap((s) => s.uses);

  it('finds the tables and their owners', () => {
    expect(owners.get('extensions')).toBe('directory');
    expect(owners.get('queues')).toBe('routing');
    expect(owners.get('pbxes')).toBe('platform');
    expect(owners.get('employees')).toBe('workforce/organisation');
    expect(owners.get('absence_requests')).toBe('workforce/absences');
    expect(owners.size).toBeGreaterThan(60);
    expect(uses.length).toBeGreaterThan(300);
  });

  it('names only tables that exist', () => {
    const unknown = uses.filter((u) => !owners.has(u.table)).map((u) => `${u.file}:${u.line} ${u.table}`);
    expect(unknown).toEqual([]);
  });

  it('names tables in SQL only as string literals, so the scan sees them', () => {
    expect(scanned.flatMap((s) => s.dynamic)).toEqual([]);
  });

  it("a domain's SQL names only its own tables and the shared ones of db/ and platform/", () => {
    const foreign = uses
      .filter((u) => {
        const owner = owners.get(u.table);
        return owner !== undefined && owner !== 'platform' && owner !== u.domain && !(`${u.file} -> ${u.table}` in ALLOWED);
      })
      .map((u) => `${u.file}:${u.line} ${u.domain} -> ${u.table} (${owners.get(u.table)})`);
    expect(foreign).toEqual([]);
  });

  it('allows only exceptions that are still needed, each with a reason', () => {
    const needed = new Set(uses.map((u) => `${u.file} -> ${u.table}`));
    for (const [entry, reason] of Object.entries(ALLOWED)) {
      expect(needed.has(entry), `${entry} is allow-listed but no longer used`).toBe(true);
      expect(reason.length, `${entry} needs a reason`).toBeGreaterThan(10);
    }
  });
});
