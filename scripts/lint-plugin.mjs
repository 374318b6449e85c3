// The repo's own lint rules, loaded by oxlint as a JS plugin named `local` (.oxlintrc.json;
// docs/decisions.md "Lint is oxlint"): the two checks oxlint has no native rule for.
//
// - `local/no-restricted-paths`: the client's layers (docs/architecture.md "Layout"). It takes the
//   zones of import-x's rule of that name: a file under a zone's `target` may not import from any
//   of its `from` paths (folders, or files whose `.js` specifier stands for the `.ts`/`.tsx`
//   source, TypeScript's NodeNext rule). Paths are relative to the folder oxlint runs in, the
//   repo's root (`npm run lint`).
// - `local/no-dynamic-import-cycle`: an import cycle with an `import()` in it. oxlint's
//   `import/no-cycle` leaves `import()` out of its module graph (oxc-project/oxc issue 25555), so
//   it finds the cycles of static imports only; this finds the others.
//
// Every way one module names another is read: `import … from`, a side-effect `import`,
// `export … from`, `import()`, `require()`, `import x = require()` and a type's `import()`. A
// relative or absolute specifier is resolved against the importing file; a bare specifier names a
// package, outside the tree (package.json maps no `imports` or `exports` into it).
// In a layer, a module named by anything but a constant string (`import(name)`) is refused: which
// module it is cannot be known here.
import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT_EXTENSION = /\.(?:[cm]?[jt]s|[jt]sx)$/;

/** Whether `path` is the folder `dir` or inside it. */
function inside(path, dir) {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The repo-relative form of `path`, with forward slashes, for messages. */
function shown(root, path) {
  return relative(root, path).split(sep).join('/');
}

/** The specifier a module-naming node holds, when it is a constant string. */
function specifierOf(node) {
  if (!node) return undefined;
  if (node.type === 'Literal') return typeof node.value === 'string' ? node.value : undefined;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0)
    return node.quasis[0]?.value.cooked ?? undefined;
  if (node.type === 'TSLiteralType') return specifierOf(node.literal);
  return undefined;
}

/** The absolute path `specifier` names from `file` (existing or not), or undefined for a package. */
function pathOf(specifier, file) {
  if (specifier.startsWith('file:')) return fileURLToPath(specifier);
  if (specifier.startsWith('.') || isAbsolute(specifier)) return resolve(dirname(file), specifier);
  return undefined;
}

/**
 * Calls `visit(node, kind)` for each module specifier node of a file, `kind` being `static`,
 * `dynamic` (an `import()`) or `type` (erased: `import type`, `export type`, a type's `import()`).
 */
function moduleVisitor(visit) {
  const typeOnly = (node) =>
    node.importKind === 'type' ||
    node.exportKind === 'type' ||
    (node.specifiers?.length > 0 &&
      node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));
  const declaration = (node) => visit(node.source, typeOnly(node) ? 'type' : 'static');
  return {
    ImportDeclaration: declaration,
    ExportNamedDeclaration: declaration,
    ExportAllDeclaration: declaration,
    ImportExpression: (node) => visit(node.source, 'dynamic'),
    TSImportType: (node) => visit(node.argument ?? node.source, 'type'),
    TSImportEqualsDeclaration: (node) => {
      if (node.moduleReference.type === 'TSExternalModuleReference')
        visit(node.moduleReference.expression, node.importKind === 'type' ? 'type' : 'static');
    },
    CallExpression: (node) => {
      if (
        node.callee.type === 'Identifier' &&
        node.callee.name === 'require' &&
        node.arguments.length === 1
      )
        visit(node.arguments[0], 'static');
    },
  };
}

const stringOrList = { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] };

const noRestrictedPaths = {
  meta: {
    type: 'problem',
    docs: { description: 'A layer imports nothing from the paths its zones name' },
    schema: [
      {
        type: 'object',
        properties: {
          zones: {
            type: 'array',
            items: {
              type: 'object',
              properties: { target: stringOrList, from: stringOrList, message: { type: 'string' } },
              required: ['target', 'from', 'message'],
              additionalProperties: false,
            },
          },
        },
        required: ['zones'],
        additionalProperties: false,
      },
    ],
    messages: {
      zone: '"{{specifier}}": {{layer}} {{message}}',
      computed:
        'a module named by a computed specifier: {{layer}} cannot be checked against its layers; name the module in a string',
    },
  },
  create(context) {
    const root = context.cwd;
    const file = context.physicalFilename;
    // the zones whose target holds this file, each with the target it matched
    const zones = (context.options[0]?.zones ?? []).flatMap((zone) =>
      [zone.target]
        .flat()
        .map((target) => resolve(root, target))
        .filter((target) => inside(file, target))
        .map((target) => ({
          layer: shown(root, target),
          from: [zone.from].flat().map((from) => resolve(root, from)),
          message: zone.message,
        })),
    );
    if (zones.length === 0) return {};
    /** Whether the module at `path` is the `from` entry: inside the folder, or the same module. */
    const isFrom = (path, from) =>
      SCRIPT_EXTENSION.test(from)
        ? path.replace(SCRIPT_EXTENSION, '') === from.replace(SCRIPT_EXTENSION, '')
        : inside(path, from);
    return moduleVisitor((node) => {
      // no module named (an `export` of a local declaration)
      if (!node) return;
      const specifier = specifierOf(node);
      // a module this rule cannot name is one it cannot clear: refused, not passed
      if (specifier === undefined) {
        context.report({ node, messageId: 'computed', data: { layer: zones[0].layer } });
        return;
      }
      const path = pathOf(specifier, file);
      if (path === undefined) return;
      for (const zone of zones)
        if (zone.from.some((from) => isFrom(path, from)))
          context.report({
            node,
            messageId: 'zone',
            data: { specifier, layer: zone.layer, message: zone.message },
          });
    });
  },
};

/** The source file an import of `path` loads: itself, or the `.ts`/`.tsx` a `.js` stands for. */
const sourceFiles = new Map();
function sourceFile(path) {
  let found = sourceFiles.get(path);
  if (found === undefined) {
    const stem = path.replace(/\.[cm]?jsx?$/, '');
    const candidates = [path, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${stem}.cts`];
    found = candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
    sourceFiles.set(path, found);
  }
  return found ?? undefined;
}

/**
 * The run's module graph: each linted file's runtime imports (type-only ones left out, as
 * import-x's no-cycle leaves them out), added as the file is linted. A cycle is complete in it
 * once its last file is linted, and is reported there.
 */
const graph = new Map();

/** A path from `start` to `goal` through the graph with an `import()` on it, or undefined. */
function dynamicPath(start, goal, dynamicSoFar) {
  const seen = new Set();
  const queue = [{ file: start, dynamic: dynamicSoFar, route: [start] }];
  while (queue.length > 0) {
    const { file, dynamic, route } = queue.shift();
    if (file === goal && dynamic) return route;
    const key = `${dynamic}:${file}`;
    if (seen.has(key) || file === goal) continue;
    seen.add(key);
    for (const edge of graph.get(file) ?? [])
      queue.push({ file: edge.to, dynamic: dynamic || edge.dynamic, route: [...route, edge.to] });
  }
  return undefined;
}

const noDynamicImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'No import cycle runs through an import()' },
    schema: [],
    messages: { cycle: 'Dependency cycle through import(): {{route}}' },
  },
  create(context) {
    const root = context.cwd;
    const file = context.physicalFilename;
    const edges = [];
    return {
      ...moduleVisitor((node, kind) => {
        if (kind === 'type') return;
        const specifier = specifierOf(node);
        const path = specifier === undefined ? undefined : pathOf(specifier, file);
        const to = path === undefined ? undefined : sourceFile(path);
        if (to !== undefined) edges.push({ node, to, dynamic: kind === 'dynamic' });
      }),
      'Program:exit'() {
        graph.set(file, edges);
        for (const edge of edges) {
          const route = dynamicPath(edge.to, file, edge.dynamic);
          if (route)
            context.report({
              node: edge.node,
              messageId: 'cycle',
              data: { route: [file, ...route].map((path) => shown(root, path)).join(' → ') },
            });
        }
      },
    };
  },
};

export default {
  meta: { name: 'local' },
  rules: {
    'no-restricted-paths': noRestrictedPaths,
    'no-dynamic-import-cycle': noDynamicImportCycle,
  },
};
