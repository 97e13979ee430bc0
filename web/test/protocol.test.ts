// src/protocol.ts against docs/protocol/server-messages.schema.json (which
// the server's structs are tested against, tests/server/server_messages_test.cpp):
// every message of the schema has its interface (msg_<type> → <Type>Message,
// a nested object <name> → Wire<Name>) with the same fields, the same
// optional ones and, for the plain ones, the same type; the union
// ServerMessage holds every message. A field added on one side only fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import ts from 'typescript';

type Schema = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  $ref?: string;
  oneOf?: Schema[];
};

const root = JSON.parse(readFileSync(new URL('../../docs/protocol/server-messages.schema.json', import.meta.url), 'utf8')) as {
  oneOf: Schema[];
  $defs: Record<string, Schema>;
};
const source = ts.createSourceFile(
  'protocol.ts',
  readFileSync(new URL('../src/protocol.ts', import.meta.url), 'utf8'),
  ts.ScriptTarget.ES2022,
  true,
);

const pascal = (s: string) => s.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());
const interfaceName = (def: string) => (def.startsWith('msg_') ? `${pascal(def.slice(4))}Message` : `Wire${pascal(def)}`);

interface Field {
  optional: boolean;
  type: string;
}

const interfaces = new Map<string, ts.InterfaceDeclaration>();
let union: string[] = [];
source.forEachChild(n => {
  if (ts.isInterfaceDeclaration(n)) interfaces.set(n.name.text, n);
  if (ts.isTypeAliasDeclaration(n) && n.name.text === 'ServerMessage' && ts.isUnionTypeNode(n.type))
    union = n.type.types.map(t => t.getText(source));
});

/** The fields of an interface, those of the interfaces it extends (in this file) included. */
function fields(name: string): Map<string, Field> {
  const decl = interfaces.get(name);
  assert.ok(decl, `src/protocol.ts has no interface ${name}`);
  const out = new Map<string, Field>();
  for (const h of decl.heritageClauses ?? []) for (const t of h.types) for (const [k, v] of fields(t.expression.getText(source))) out.set(k, v);
  for (const m of decl.members)
    if (ts.isPropertySignature(m) && m.type) out.set(m.name.getText(source), { optional: !!m.questionToken, type: m.type.getText(source) });
  return out;
}

// The TypeScript type of a plain schema (a literal, a primitive, maybe null,
// an array of primitives); null for the others, whose types are not compared.
function plainType(s: Schema): string | null {
  if (s.const !== undefined) return JSON.stringify(s.const).replace(/"/g, "'");
  const prim = (t: string) => ({ string: 'string', integer: 'number', number: 'number', boolean: 'boolean' })[t] ?? null;
  if (s.type === 'array' && s.items?.type && typeof s.items.type === 'string' && prim(s.items.type)) return `${prim(s.items.type)}[]`;
  if (typeof s.type === 'string') return prim(s.type);
  if (Array.isArray(s.type) && s.type.length === 2 && s.type[1] === 'null' && prim(s.type[0])) return `${prim(s.type[0])} | null`;
  return null;
}
// Aliases of string in the client's code.
const normalise = (t: string) => t.replace(/\bVariant\b/g, 'string');

const described = Object.keys(root.$defs).filter(d => root.$defs[d].properties);

test('protocol.ts: one interface per object of the schema, with its fields', () => {
  for (const def of described) {
    const schema = root.$defs[def];
    const name = interfaceName(def);
    const have = fields(name);
    const required = new Set(schema.required ?? []);
    assert.deepEqual([...have.keys()].sort(), Object.keys(schema.properties!).sort(), `${name}: fields`);
    for (const [field, s] of Object.entries(schema.properties!)) {
      const f = have.get(field)!;
      assert.equal(f.optional, !required.has(field), `${name}.${field}: optional`);
      const want = plainType(s);
      if (want !== null) assert.equal(normalise(f.type), want, `${name}.${field}: type`);
    }
  }
});

test('protocol.ts: ServerMessage is the union of every message of the schema', () => {
  const messages = root.oneOf.map(r => r.$ref!.replace('#/$defs/', ''));
  assert.deepEqual([...union].sort(), messages.map(interfaceName).sort());
  for (const m of messages) assert.equal(root.$defs[m].properties!.type.const, m.slice(4));
});
