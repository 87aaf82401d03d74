import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { Database } from '../../src/platform/db/database.js';
import type { DB } from '../../src/tables.js';

/**
 * Compares the Kysely types of the whole database (src/tables.ts, which gathers every owner's rows.ts) with a migrated database (test/platform/schema-types.test.ts).
 *
 * Two readers and one pure comparison:
 *  - readDatabaseSchema(): the relations of schema public (tables, views, materialized views; partitions and
 *    objects of extensions left out) with each column's SQL type, nullability, default, identity/serial and
 *    generated flag, from pg_catalog;
 *  - readDeclaredSchema(): the `DB` interface of src/tables.ts (the properties it inherits from each owner's interface) read with the
 *    TypeScript compiler's type checker, so aliases (Int8, Money, CreatedAt, Frozen<T>, imported ones) are
 *    resolved the way Kysely sees them: a ColumnType<S, I, U> (Generated<T> is one) yields its select, insert and
 *    update types, any other type is all three;
 *  - compareSchema(): every rule below, returning one line per mismatch.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SCHEMA_FILE = 'src/tables.ts';

// ---------------------------------------------------------------------------------------------------------
// The database

export interface DbColumn {
  name: string;
  /** As PostgreSQL prints it: `numeric(78,0)`, `timestamp with time zone`, `text[]`. */
  sqlType: string;
  /** The type's name with domains resolved to their base and enums as `enum`; arrays end in `[]` (`text[]`). */
  baseType: string;
  nullable: boolean;
  /** The default expression (not for generated columns), `identity` for identity columns. */
  defaultExpr: string | null;
  /** An identity column or one whose default draws from a sequence (serial, bigserial). */
  serial: boolean;
  /** GENERATED ALWAYS AS (…) STORED: computed by the database, never written. */
  generated: boolean;
}

export interface DbRelation {
  name: string;
  kind: 'table' | 'view';
  columns: DbColumn[];
}

interface CatalogRow {
  relation: string;
  relkind: string;
  column_name: string;
  sql_type: string;
  typname: string;
  typtype: string;
  base_typname: string | null;
  base_typtype: string | null;
  elem_typname: string | null;
  elem_typtype: string | null;
  not_null: boolean;
  default_expr: string | null;
  identity: boolean;
  generated: boolean;
}

/** The relations of schema public and their columns, in column order. */
export async function readDatabaseSchema(database: Database<DB>): Promise<DbRelation[]> {
  const rows = await database.withSession((session) =>
    session.query<CatalogRow>(`
      select c.relname as relation, c.relkind::text as relkind, a.attname as column_name,
        format_type(a.atttypid, a.atttypmod) as sql_type, t.typname, t.typtype::text as typtype,
        bt.typname as base_typname, bt.typtype::text as base_typtype,
        et.typname as elem_typname, et.typtype::text as elem_typtype,
        a.attnotnull as not_null, pg_get_expr(d.adbin, d.adrelid) as default_expr,
        a.attidentity <> '' as identity, a.attgenerated <> '' as generated
      from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      join pg_type t on t.oid = a.atttypid
      left join pg_type bt on t.typtype = 'd' and bt.oid = t.typbasetype
      left join pg_type et on et.oid = coalesce(bt.typelem, t.typelem) and coalesce(bt.typcategory, t.typcategory) = 'A'
      left join pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
      where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'f') and not c.relispartition
        and not exists (select 1 from pg_depend dep where dep.classid = 'pg_class'::regclass and dep.objid = c.oid and dep.deptype = 'e')
      order by c.relname, a.attnum`),
  );
  const relations = new Map<string, DbRelation>();
  for (const row of rows) {
    let relation = relations.get(row.relation);
    if (!relation) {
      relation = { name: row.relation, kind: row.relkind === 'v' || row.relkind === 'm' ? 'view' : 'table', columns: [] };
      relations.set(row.relation, relation);
    }
    const typeName = (name: string, type: string) => (type === 'e' ? 'enum' : name);
    const base = row.base_typname ? typeName(row.base_typname, row.base_typtype ?? '') : typeName(row.typname, row.typtype);
    relation.columns.push({
      name: row.column_name,
      sqlType: row.sql_type,
      baseType: row.elem_typname ? `${typeName(row.elem_typname, row.elem_typtype ?? '')}[]` : base,
      nullable: !row.not_null,
      defaultExpr: row.generated ? null : row.identity ? 'identity' : row.default_expr,
      serial: row.identity || /^nextval\(/.test(row.default_expr ?? ''),
      generated: row.generated,
    });
  }
  return [...relations.values()];
}

// ---------------------------------------------------------------------------------------------------------
// The declared row types

/**
 * What a declared type can hold, one entry per kind: `string` (string and string literals), `number`, `boolean`,
 * `bigint`, `Date`, `Uint8Array`, `object` (records and other objects), `unknown` (also any), `null`,
 * `undefined`, and arrays as `<element kind>[]`.
 */
type Kind = string;

export interface DeclaredColumn {
  name: string;
  /** The declaration's text, e.g. `Generated<Int8>`, `Date | null`. */
  typeText: string;
  select: Kind[];
  /**
   * `optional`: Kysely lets an insert leave the column out, as its insert type takes undefined or null
   * (Generated<T>, ColumnType<S, I | undefined, U>, T | null).
   */
  insert: 'required' | 'optional' | 'never';
  update: 'writable' | 'never';
}

export interface DeclaredTable {
  name: string;
  /** The interface (or type) the DB property names, e.g. `StoriesTable`. */
  typeName: string;
  columns: DeclaredColumn[];
}

/** The standard library's and Kysely's declaration files, parsed once per process. */
const declarationFiles = new Map<string, ts.SourceFile>();

/**
 * The tables of the `DB` interface in src/tables.ts. `sources` replaces the text of files (paths
 * relative to the repository root), e.g. a doctored rows.ts; everything else is read from disk. Throws on
 * type errors in the row-type files, which would make the types unreadable.
 */
export function readDeclaredSchema(sources: Record<string, string> = {}): DeclaredTable[] {
  const replaced = new Map(Object.entries(sources).map(([path, text]) => [resolve(ROOT, path), text]));
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es5.d.ts'],
    types: [],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  };
  const host = ts.createCompilerHost(options, true);
  const readSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const text = replaced.get(resolve(fileName));
    if (text !== undefined) return ts.createSourceFile(fileName, text, languageVersion, true);
    if (!fileName.endsWith('.d.ts')) return readSourceFile(fileName, languageVersion, onError, shouldCreate);
    let file = declarationFiles.get(fileName);
    if (!file) {
      file = readSourceFile(fileName, languageVersion, onError, shouldCreate);
      if (file) declarationFiles.set(fileName, file);
    }
    return file;
  };
  // Kysely's index.d.ts pulls in some 300 declaration files (about 4 s to parse on a small machine); the schema
  // files take ColumnType and Generated from it, which live in its util/column-type.d.ts, so 'kysely' resolves
  // to that file. Importing anything else from kysely in a row-type file fails the compile below, with its name.
  host.resolveModuleNameLiterals = (literals, containingFile, redirectedReference, compilerOptions) =>
    literals.map((literal) => {
      const resolved = ts.resolveModuleName(literal.text, containingFile, compilerOptions, host, undefined, redirectedReference);
      const index = resolved.resolvedModule?.resolvedFileName;
      if (literal.text === 'kysely' && index && resolved.resolvedModule) {
        const columnTypes = join(dirname(index), 'util', 'column-type.d.ts');
        if (host.fileExists(columnTypes)) return { resolvedModule: { ...resolved.resolvedModule, resolvedFileName: columnTypes } };
      }
      return resolved;
    });
  const schemaPath = join(ROOT, SCHEMA_FILE);
  const program = ts.createProgram([schemaPath], options, host);

  const errors = program
    .getSourceFiles()
    .filter((f) => !f.isDeclarationFile)
    .flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]);
  if (errors.length > 0) throw new Error(`the row-type files do not compile:\n${ts.formatDiagnostics(errors, host)}`);

  const checker = program.getTypeChecker();
  const file = program.getSourceFile(schemaPath);
  const dbInterface = file?.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'DB');
  if (!dbInterface) throw new Error(`${SCHEMA_FILE} has no interface DB`);

  const typeOf = (symbol: ts.Symbol) => checker.getTypeOfSymbolAtLocation(symbol, dbInterface);
  const kindsOf = (type: ts.Type): Kind[] => {
    const kinds = new Set<Kind>();
    for (const part of type.isUnion() ? type.types : [type]) {
      const flags = part.flags;
      if (flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) kinds.add('unknown');
      else if (flags & ts.TypeFlags.Null) kinds.add('null');
      else if (flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) kinds.add('undefined');
      else if (flags & ts.TypeFlags.Never) continue;
      else if (flags & ts.TypeFlags.StringLike) kinds.add('string');
      else if (flags & ts.TypeFlags.NumberLike) kinds.add('number');
      else if (flags & ts.TypeFlags.BooleanLike) kinds.add('boolean');
      else if (flags & ts.TypeFlags.BigIntLike) kinds.add('bigint');
      else if (checker.isArrayType(part) || checker.isTupleType(part)) {
        const elements = (checker.getTypeArguments(part as ts.TypeReference) ?? []).flatMap(kindsOf);
        const distinct = [...new Set(elements)];
        kinds.add(`${distinct.length === 1 ? distinct[0] : 'unknown'}[]`);
      } else {
        const name = part.getSymbol()?.getName();
        kinds.add(name === 'Date' ? 'Date' : name === 'Uint8Array' || name === 'Buffer' ? 'Uint8Array' : 'object');
      }
    }
    return [...kinds].sort((a, b) => Number(a === 'null') - Number(b === 'null') || a.localeCompare(b));
  };
  const isNever = (type: ts.Type) => (type.flags & ts.TypeFlags.Never) !== 0;
  // Kysely's Insertable<T> leaves out a column whose insert type takes undefined or null.
  const optionalOnInsert = (type: ts.Type) =>
    (type.isUnion() ? type.types : [type]).some(
      (t) => (t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null | ts.TypeFlags.Any | ts.TypeFlags.Unknown)) !== 0,
    );

  return checker.getPropertiesOfType(checker.getTypeAtLocation(dbInterface)).map((table) => {
    const tableType = typeOf(table);
    return {
      name: table.getName(),
      typeName: tableType.aliasSymbol?.getName() ?? tableType.getSymbol()?.getName() ?? '?',
      columns: checker.getPropertiesOfType(tableType).map((column): DeclaredColumn => {
        const type = typeOf(column);
        const declaration = column.valueDeclaration ?? column.declarations?.[0];
        const typeText =
          declaration && ts.isPropertySignature(declaration) && declaration.type ? declaration.type.getText() : checker.typeToString(type);
        const part = (name: string) => {
          const property = type.getProperty(name);
          return property ? typeOf(property) : type;
        };
        const insert = part('__insert__');
        return {
          name: column.getName(),
          typeText,
          select: kindsOf(part('__select__')).filter((k) => k !== 'undefined'),
          insert: isNever(insert) ? 'never' : optionalOnInsert(insert) || column.flags & ts.SymbolFlags.Optional ? 'optional' : 'required',
          update: isNever(part('__update__')) ? 'never' : 'writable',
        };
      }),
    };
  });
}

// ---------------------------------------------------------------------------------------------------------
// The comparison

/** What a column of each SQL type may select as, and how to say it in a message. */
const SQL_KINDS: Record<string, { kinds: Kind[] | 'any'; expected: string }> = {};
const rule = (types: string[], kinds: Kind[] | 'any', expected: string) => {
  for (const t of types) SQL_KINDS[t] = { kinds, expected };
};
rule(
  ['text', 'varchar', 'bpchar', 'char', 'name', 'citext', 'uuid', 'inet', 'cidr', 'macaddr', 'time', 'timetz', 'enum'],
  ['string'],
  'string or a union of string literals',
);
rule(['tsvector', 'tsquery'], ['string'], 'string');
rule(['int2', 'int4', 'float4', 'float8', 'oid'], ['number'], 'number');
rule(['int8'], ['string'], 'Int8 (a decimal string: both drivers hand int8 over as a string)');
rule(['numeric'], ['string'], 'Money or string (numeric arrives as a decimal string)');
rule(['bool'], ['boolean'], 'boolean');
rule(['timestamptz', 'timestamp'], ['Date'], 'Date');
rule(['date'], ['Date', 'string'], "Date, or the 'YYYY-MM-DD' string the code compares it with");
rule(['bytea'], ['Uint8Array'], 'Uint8Array (or Buffer)');
rule(['json', 'jsonb'], 'any', 'any type (the drivers parse json)');

function expectedKinds(baseType: string): { kinds: Kind[] | 'any'; expected: string } | undefined {
  if (baseType.endsWith('[]')) {
    const element = expectedKinds(baseType.slice(0, -2));
    if (!element) return undefined;
    return element.kinds === 'any'
      ? { kinds: 'any', expected: 'any array' }
      : { kinds: element.kinds.map((k) => `${k}[]`), expected: `an array of ${element.expected}` };
  }
  return SQL_KINDS[baseType];
}

const describeColumn = (c: DbColumn) =>
  `${c.sqlType}${c.nullable ? '' : ' not null'}${c.generated ? ' generated' : c.defaultExpr ? ` default ${c.defaultExpr}` : ''}`;

/**
 * Every difference between the database and the declared types, as `table.column: what differs`, sorted.
 * The rules:
 *  - every table and view of the database is a property of DB and every property of DB is one of them;
 *  - every column is declared in its table's type and every declared column exists;
 *  - tables: a nullable column's select type includes null, and a NOT NULL column's does not (views are not
 *    checked for nullability: PostgreSQL reports every view column as nullable);
 *  - tables: a column with a default (serial and identity columns included) is optional on insert: Generated<T>,
 *    or a ColumnType whose insert type includes undefined (a `T | null` type, which Kysely also lets an insert
 *    leave out, passes too); a NOT NULL column without a default is not (the insert would fail); a generated
 *    column is never written (insert and update types `never`);
 *  - the select type fits the SQL type: text-like → string or string literals, int2/int4/float → number,
 *    int8 → Int8 (a string), numeric → Money or string, bool → boolean, timestamptz → Date, date → Date or string,
 *    bytea → Uint8Array, arrays → arrays of their element's kind, json/jsonb → anything. A SQL type without a
 *    rule is reported, so that a new type gets one here.
 */
export function compareSchema(database: DbRelation[], declared: DeclaredTable[]): string[] {
  const problems: string[] = [];
  const declaredByName = new Map(declared.map((t) => [t.name, t]));
  const relationNames = new Set(database.map((r) => r.name));
  for (const table of declared)
    if (!relationNames.has(table.name))
      problems.push(`${table.name}: in the DB interface (${table.typeName}) but the database has no such table or view`);

  for (const relation of database) {
    const table = declaredByName.get(relation.name);
    if (!table) {
      problems.push(`${relation.name}: ${relation.kind} in the database but not in the DB interface`);
      continue;
    }
    const columns = new Map(table.columns.map((c) => [c.name, c]));
    const dbColumns = new Set(relation.columns.map((c) => c.name));
    for (const column of table.columns)
      if (!dbColumns.has(column.name))
        problems.push(`${relation.name}.${column.name}: declared in ${table.typeName} but the database has no such column`);

    for (const dbColumn of relation.columns) {
      const at = `${relation.name}.${dbColumn.name}`;
      const column = columns.get(dbColumn.name);
      if (!column) {
        problems.push(`${at}: column in the database (${describeColumn(dbColumn)}) but not declared in ${table.typeName}`);
        continue;
      }
      const declaredAs = `'${column.typeText}'`;
      const selectsNull = column.select.includes('null') || column.select.includes('unknown');

      if (relation.kind === 'table') {
        if (dbColumn.nullable && !selectsNull) problems.push(`${at}: nullable in the database but ${declaredAs} does not include null`);
        if (!dbColumn.nullable && column.select.includes('null'))
          problems.push(`${at}: NOT NULL in the database but ${declaredAs} includes null`);

        if (dbColumn.generated) {
          if (column.insert !== 'never' || column.update !== 'never')
            problems.push(`${at}: generated by the database but ${declaredAs} can be written; declare ColumnType<…, never, never>`);
        } else if (dbColumn.defaultExpr !== null) {
          if (column.insert === 'required')
            problems.push(
              `${at}: ${dbColumn.serial ? 'serial/identity' : `has a default (${dbColumn.defaultExpr})`} in the database but ${declaredAs} is required on insert; use Generated<…> or a ColumnType whose insert type includes undefined`,
            );
        } else if (!dbColumn.nullable && column.insert === 'optional') {
          problems.push(
            `${at}: NOT NULL without a default in the database but ${declaredAs} is optional on insert (the insert would fail)`,
          );
        }
      }

      const expected = expectedKinds(dbColumn.baseType);
      if (!expected) {
        problems.push(`${at}: no rule for SQL type ${dbColumn.sqlType} (${dbColumn.baseType}) in test/helpers/schema-check.ts; add one`);
        continue;
      }
      if (expected.kinds === 'any') continue;
      const allowed = new Set([...expected.kinds, 'null', 'undefined']);
      const wrong = column.select.filter((k) => !allowed.has(k));
      if (wrong.length > 0 || column.select.every((k) => k === 'null' || k === 'undefined'))
        problems.push(
          `${at}: ${dbColumn.sqlType} in the database, expected ${expected.expected}, but ${declaredAs} selects as ${column.select.join(' | ') || 'never'}`,
        );
    }
  }
  return problems.sort();
}
