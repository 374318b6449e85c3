/**
 * Runs before every unit test file (vitest.config.ts, the unit project's `setupFiles`). The unit
 * project's files share a worker process (`isolate: false`) but not their modules, nor what a
 * file leaves in the process (docs/decisions.md "The unit tests share a worker, not their
 * modules"):
 *
 * - Before the file's imports, the module registry is reset (`vi.resetModules()`): every module
 *   of the repo is evaluated again for this file, its fakes, stores and caches as new as in a
 *   new process. Third-party packages, which Node itself loads, are loaded once per worker, as
 *   in the long-lived processes (serve, the tool server, the app). Checked, not trusted: a
 *   marker module (test/unit-module-marker.ts) must have been evaluated once for every file the
 *   worker has run, this one included, else the file fails.
 * - After the file, vitest's own worker-wide state (fake timers, spies, stubbed environment
 *   variables and globals) and `process.env` are put back. A global, a console method, a process
 *   listener, a module hook (node:module `registerHooks`) or the working directory that the file
 *   left changed fails the file, naming it, and is put back for the next one.
 */
import module from 'node:module';
import { afterAll, vi } from 'vitest';

const FILES = Symbol.for('finance-tui.unit-files');
const HOOKS = Symbol.for('finance-tui.unit-module-hooks');
type Registration = ReturnType<typeof module.registerHooks>;
const worker = globalThis as { [FILES]?: number; [HOOKS]?: Set<Registration> };

/**
 * Globals that what loads them sets once per worker, whichever file first needs them, and that
 * no test sets: vitest's expect state (one per file), Node's fetch dispatcher, zod's registry.
 */
const LOADERS_GLOBALS = new Set<string | symbol>([
  Symbol.for('$$jest-matchers-object'),
  Symbol.for('undici.globalDispatcher.1'),
  Symbol.for('undici.globalDispatcher.2'),
  '__zod_globalConfig',
  '__zod_globalRegistry',
]);

worker[FILES] = (worker[FILES] ?? 0) + 1;
vi.resetModules();
const { evaluations } = await import('./unit-module-marker.js');
if (evaluations !== worker[FILES])
  throw new Error(
    `the unit set-up could not give this file its own modules: test/unit-module-marker.ts was ` +
      `evaluated ${evaluations} times for ${worker[FILES]} files in this worker ` +
      `(docs/decisions.md "The unit tests share a worker, not their modules")`,
  );

// module hooks are process-wide: every registration is tracked so that one left behind is seen
if (worker[HOOKS] === undefined) {
  const live = new Set<Registration>();
  const register = module.registerHooks.bind(module);
  module.registerHooks = (hooks) => {
    const registered = register(hooks);
    const registration: Registration = {
      deregister() {
        live.delete(registration);
        registered.deregister();
      },
    };
    live.add(registration);
    return registration;
  };
  // `import { registerHooks } from 'node:module'` reads the tracked one from now on
  module.syncBuiltinESMExports();
  worker[HOOKS] = live;
}
const hooks = worker[HOOKS];

const descriptors = (target: object) =>
  new Map(
    Reflect.ownKeys(target).map((key) => [key, Reflect.getOwnPropertyDescriptor(target, key)]),
  );
const same = (a?: PropertyDescriptor, b?: PropertyDescriptor): boolean =>
  a !== undefined &&
  b !== undefined &&
  Object.is(a.value, b.value) &&
  a.get === b.get &&
  a.set === b.set;

/** Puts `target`'s own properties back as `before` had them; the keys it changed. */
function restoreProperties(
  target: object,
  before: Map<string | symbol, PropertyDescriptor | undefined>,
  ignore: ReadonlySet<string | symbol> = new Set(),
): string[] {
  const changed: string[] = [];
  const after = descriptors(target);
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const was = before.get(key);
    if (ignore.has(key) || same(was, after.get(key))) continue;
    changed.push(String(key));
    if (was === undefined) Reflect.deleteProperty(target, key);
    else Reflect.defineProperty(target, key, was);
  }
  return changed;
}

const env = { ...process.env };
const globals = descriptors(globalThis);
const consoleMethods = descriptors(console);
const listeners = new Map(process.eventNames().map((name) => [name, process.listeners(name)]));
const cwd = process.cwd();

afterAll(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
  Object.assign(process.env, env);

  const left: string[] = [];
  const changedGlobals = restoreProperties(globalThis, globals, LOADERS_GLOBALS);
  if (changedGlobals.length > 0) left.push(`globals changed: ${changedGlobals.join(', ')}`);
  const changedConsole = restoreProperties(console, consoleMethods);
  if (changedConsole.length > 0) left.push(`console changed: ${changedConsole.join(', ')}`);
  for (const name of process.eventNames()) {
    const added = process.listeners(name).filter((l) => !listeners.get(name)?.includes(l));
    for (const listener of added) process.removeListener(name, listener);
    if (added.length > 0) left.push(`${added.length} process listener(s) for ${String(name)}`);
  }
  if (hooks.size > 0) {
    left.push(`${hooks.size} module hook registration(s) never deregistered`);
    for (const registration of [...hooks]) registration.deregister();
  }
  if (process.cwd() !== cwd) {
    left.push(`the working directory changed to ${process.cwd()}`);
    process.chdir(cwd);
  }
  if (left.length > 0)
    throw new Error(
      `this file left in the worker what a new process would not have: ${left.join('; ')} ` +
        `(put back for the next file; docs/decisions.md "The unit tests share a worker, not their modules")`,
    );
});
