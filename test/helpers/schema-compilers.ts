/**
 * Fastify's own schema compilers — Ajv for what a request carries, fast-json-stringify for the
 * replies — with each compiled function kept by the identity of the schema it was compiled from,
 * for the apps tests build one after another (the auth server of helpers/build-test-app.ts, the
 * chain emulator of helpers/chain-emulator.ts, the emulators of sandbox/identity/app.test.ts and
 * sandbox/aggregator/app.test.ts): a route's schema
 * is a module constant, the same object in every app built from the same modules, and compiling
 * it again for each app was most of building one (docs/decisions.md "Apps built by one test file
 * compile each schema once"). The auth server compiles its validators with TypeBox
 * (server/app.ts), so only its reply serializers are kept.
 *
 * What an app gets is what Fastify's defaults compile, the first time: a compiled validator or
 * serializer reads nothing but its input (a validator's `errors` is set and read within one call),
 * so one compiled for an earlier app of the file answers as its own would. The compilers are the
 * copies Fastify itself loads (resolved from its folder), with Fastify's options: a schema compiled
 * under other external schemas or options is compiled again. Giving Fastify a validator factory
 * makes it pass a route's `headers` schema as written rather than lower-cased: no route of the
 * apps above has one.
 */
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type SchemaController = NonNullable<FastifyServerOptions['schemaController']>;
type Factories = NonNullable<SchemaController['compilersFactory']>;
type Factory = (
  externalSchemas: unknown,
  options: unknown,
) => (route: { schema: unknown }) => unknown;

const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
const AjvCompiler = fromFastify('@fastify/ajv-compiler') as () => Factory;
const { SerializerSelector } = fromFastify('@fastify/fast-json-stringify-compiler') as {
  SerializerSelector: () => Factory;
};

/** `factory`, each compiled function kept by its schema object under the same options. */
function keptBySchema(factory: Factory): Factory {
  const byOptions = new Map<string, WeakMap<object, unknown>>();
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options);
    const key = JSON.stringify([externalSchemas, options]);
    let compiled = byOptions.get(key);
    if (compiled === undefined) byOptions.set(key, (compiled = new WeakMap()));
    const kept = compiled;
    return (route) => {
      const { schema } = route;
      if (typeof schema !== 'object' || schema === null) return compile(route);
      if (!kept.has(schema)) kept.set(schema, compile(route));
      return kept.get(schema);
    };
  };
}

/** A `schemaController` option for Fastify: the apps given it share their compiled schemas. */
export function sharedSchemaCompilers(): SchemaController {
  return {
    compilersFactory: {
      buildValidator: keptBySchema(AjvCompiler()),
      buildSerializer: keptBySchema(SerializerSelector()),
    } as unknown as Factories,
  };
}

/** One for the whole test file (a module of the file's own: the unit set-up gives each its own). */
export const fileSchemaCompilers: SchemaController = sharedSchemaCompilers();
