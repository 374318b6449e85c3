/**
 * The bundle's chunks rewritten so V8 compiles their functions when it compiles the chunk, and
 * Node's compile cache keeps them (docs/decisions.md "Functions compiled with their chunk").
 *
 * Node writes a module's compile cache right after compiling it, before it runs: the cache holds
 * what V8 compiled eagerly — the top level and nothing else — so every run compiled each function
 * it called again, from source, on first call (a quarter of a trade's main-thread CPU, lazy
 * compilation of the bundle's own code the largest part: docs/benchmarks.md "Issue 35, ninth
 * round"). V8 compiles a function expression in parentheses eagerly (its "possibly invoked"
 * heuristic), so:
 *
 * - a function or arrow expression not already in parentheses is put in them;
 * - a function declaration at the top of a module or of a function's body becomes
 *   `var name = (function (…) {…});` at the start of that scope: declarations are hoisted, so the
 *   variable is assigned before any statement of the scope runs, as the declaration was. The
 *   expression is anonymous (its `.name` is still `name`, from the assignment), so an assignment to
 *   `name` inside it reaches the variable, as it reached the declaration (Yoga's compiled code
 *   reassigns its own functions);
 * - declarations inside blocks (an `if`, a loop, a `switch`), exported ones, class members and
 *   object methods stay as they are.
 *
 * A module's declarations are usable by other modules from the moment they are linked; a variable
 * only once its module has run. That is the same unless a module calls another's function before
 * the other has run, which an import cycle allows: `assertAcyclic` fails the build if the chunks'
 * static imports have one (esbuild's chunks have none).
 *
 * The text is only cut and joined: nothing else in it changes (esbuild's output, minified, stays as
 * it is). TypeScript's parser reads it (a devDependency, at build time only).
 */
import ts from 'typescript';

/** `source` (a JS module) with its functions compiled eagerly; counts what was changed. */
export function eagerFunctions(source, fileName = 'chunk.js') {
  const file = ts.createSourceFile(
    fileName,
    source,
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.JS,
  );
  if (file.parseDiagnostics?.length)
    throw new Error(`${fileName}: not parsed: ${file.parseDiagnostics[0].messageText}`);
  const counts = { declarations: 0, expressions: 0 };

  /** the node's text with its descendants rewritten */
  function render(node) {
    const pieces = [];
    let at = node.getStart(file);
    node.forEachChild((child) => {
      const start = child.getStart(file);
      if (start < at) return;
      pieces.push(source.slice(at, start), rewrite(child));
      at = child.end;
    });
    pieces.push(source.slice(at, node.end));
    return pieces.join('');
  }

  const movable = (statement) =>
    ts.isFunctionDeclaration(statement) &&
    statement.name !== undefined &&
    statement.body !== undefined &&
    !statement.modifiers?.some(
      (m) => m.kind === ts.SyntaxKind.ExportKeyword || m.kind === ts.SyntaxKind.DefaultKeyword,
    );

  /** `var name=(function(…){…});` for a declaration */
  function asVariable(declaration) {
    const text = render(declaration);
    const afterName = declaration.name.end - declaration.getStart(file);
    const isAsync = declaration.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword);
    counts.declarations++;
    return `var ${declaration.name.text}=(${isAsync ? 'async ' : ''}function${declaration.asteriskToken ? '*' : ''}${text.slice(afterName)});`;
  }

  /** a scope's statements, its declarations first (as variables) */
  function statements(list, from, to) {
    const moved = [];
    const kept = [];
    let at = from;
    for (const statement of list) {
      const start = statement.getStart(file);
      kept.push(source.slice(at, start));
      if (movable(statement)) moved.push(asVariable(statement));
      else kept.push(rewrite(statement));
      at = statement.end;
    }
    kept.push(source.slice(at, to));
    return { moved: moved.join(''), kept };
  }

  function rewrite(node) {
    if (ts.isBlock(node) && node.parent !== undefined && ts.isFunctionLike(node.parent)) {
      const open = node.getStart(file) + 1; // after `{`
      const { moved, kept } = statements(node.statements, open, node.end);
      return `{${moved}${kept.join('')}`;
    }
    if (
      (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) &&
      !ts.isParenthesizedExpression(node.parent)
    ) {
      counts.expressions++;
      return `(${render(node)})`;
    }
    return render(node);
  }

  // the module's own declarations go where its first statement was (after a #! line or comments)
  const first = file.statements[0]?.getStart(file) ?? source.length;
  const { moved, kept } = statements(file.statements, first, source.length);
  return { text: `${source.slice(0, first)}${moved}${kept.join('')}`, ...counts };
}

/**
 * Fails when the chunks' static imports (`from"./chunk-…"`, `import"./chunk-…"`) make a cycle:
 * `imports` maps each file to the files it imports.
 */
export function assertAcyclic(imports) {
  const state = new Map(); // 1: on the path, 2: done
  const visit = (file, path) => {
    if (state.get(file) === 2) return;
    if (state.get(file) === 1)
      throw new Error(
        `the bundle's chunks import each other in a cycle (${[...path.slice(path.indexOf(file)), file].join(' → ')}); scripts/eager-functions.mjs assumes none`,
      );
    state.set(file, 1);
    for (const next of imports.get(file) ?? []) visit(next, [...path, file]);
    state.set(file, 2);
  };
  for (const file of imports.keys()) visit(file, []);
}

/** The chunks a chunk's text imports statically. */
export function chunkImports(text) {
  return [...text.matchAll(/(?:from|import)\s*"\.\/(chunk-[A-Za-z0-9]+\.js)"/g)].map((m) => m[1]);
}
