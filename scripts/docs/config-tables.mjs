#!/usr/bin/env node
// `pnpm docs:config`: writes the configuration tables of docs/operations.md and docs/site.md from
// the apps' own zod schemas (each variable's `.describe()`, its default, whether it is required),
// between `<!-- config:NAME:start -->` and `<!-- config:NAME:end -->`. One source: the schema that
// validates a variable also says what it means. scripts/docs/config-tables.test.mjs fails when the
// committed docs differ from what this would write.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { STACK_VARIABLES } from '../stack-config.mjs';
import { ROOT } from './links.mjs';

/** Through the wrappers zod puts around a field (transform, pipe, optional, default). */
const describeField = (field) => {
  let schema = field;
  let fallback;
  let isOptional = false;
  for (;;) {
    const { typeName } = schema._def;
    if (typeName === 'ZodDefault') {
      fallback ??= schema._def.defaultValue();
      schema = schema._def.innerType;
    } else if (typeName === 'ZodOptional') {
      isOptional = true;
      schema = schema._def.innerType;
    } else if (typeName === 'ZodEffects') {
      schema = schema._def.schema;
    } else if (typeName === 'ZodPipeline') {
      schema = schema._def.in;
    } else {
      break;
    }
  }
  if (fallback !== undefined) {
    return fallback === '' ? '(empty)' : `\`${fallback}\``;
  }
  return isOptional ? '(unset)' : '(required)';
};

/** The rows of one zod object schema: name, default, description. */
export const schemaRows = (schema) =>
  Object.entries(schema.shape).map(([name, field]) => {
    if (!field.description) {
      throw new Error(`${name} has no .describe(): say what it means in its schema`);
    }
    return { name, default: describeField(field), description: field.description };
  });

export const renderTable = (rows) =>
  [
    '| variable | default | meaning |',
    '|---|---|---|',
    ...rows.map((row) => `| \`${row.name}\` | ${row.default} | ${row.description} |`),
  ].join('\n');

const load = async (path, name) =>
  (await tsImport(pathToFileURL(join(ROOT, path)).href, import.meta.url))[name];

/** Every table: which file holds it, under which marker, with which rows. */
export const configTables = async () => [
  {
    file: 'docs/operations.md',
    marker: 'api',
    rows: schemaRows(await load('apps/api/src/config.ts', 'ZEnvironment')),
  },
  {
    file: 'docs/operations.md',
    marker: 'web',
    rows: schemaRows(await load('apps/web/src/config.ts', 'ZWebEnvironment')),
  },
  {
    file: 'docs/operations.md',
    marker: 'stack',
    rows: STACK_VARIABLES.map((variable) => ({ ...variable, default: `\`${variable.default}\`` })),
  },
  {
    file: 'docs/site.md',
    marker: 'store',
    rows: schemaRows(await load('packages/contract/src/store/config.ts', 'ZStoreEnvironment')),
  },
];

/** The text of `markdown` with the table between the markers replaced. */
export const withTable = (markdown, marker, table) => {
  const pattern = new RegExp(
    `(<!-- config:${marker}:start -->\\n)[\\s\\S]*?(<!-- config:${marker}:end -->)`,
  );
  if (!pattern.test(markdown)) {
    throw new Error(`no <!-- config:${marker}:start --> ... end --> markers`);
  }
  return markdown.replace(pattern, (_, start, end) => `${start}${table}\n${end}`);
};

/** Every documentation file as this script would write it: { path: text }. */
export const renderedDocs = async () => {
  const files = {};
  for (const { file, marker, rows } of await configTables()) {
    files[file] ??= readFileSync(join(ROOT, file), 'utf8');
    files[file] = withTable(files[file], marker, renderTable(rows));
  }
  return files;
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const [file, text] of Object.entries(await renderedDocs())) {
    writeFileSync(join(ROOT, file), text);
    process.stdout.write(`wrote the configuration tables of ${file}\n`);
  }
}
