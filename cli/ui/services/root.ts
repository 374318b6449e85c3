/**
 * The app services' root (docs/architecture.md "Interactive app"): what the service modules
 * register on, in the manner of a Fastify plugin. Each module (connection, session, reads, plans,
 * history, settings) is `register(root, deps)` returning its methods of the port (cli/ui/services.ts
 * `TuiServices`); `mountServices` puts them on one object, getters kept, and the port's type makes
 * a missing method a type error. The root holds what they share: the environment, the core's
 * modules (loaded inside connect, after Ink has drawn its first frame) and the endpoints once
 * connected.
 */
import type { Endpoints } from '../../core/endpoints.js';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import type { TuiServices } from '../services.js';

type CoreModules = Awaited<ReturnType<typeof loadModules>>;

async function loadModules() {
  const [endpoints, account, session, quote, status, settings, rules] = await Promise.all([
    import('../../core/endpoints.js'),
    import('../../core/account.js'),
    import('../../core/session.js'),
    import('../../core/quote.js'),
    import('../../core/status.js'),
    import('../../platform/settings.js'),
    import('../../core/actions/rules.js'),
  ]);
  return { endpoints, account, session, quote, status, settings, rules };
}

interface ServicesRoot {
  readonly env: NodeJS.ProcessEnv;
  /** `--sandbox`: use or start the local sandbox */
  readonly sandbox: boolean;
  /** the core's modules, loaded once */
  load(): Promise<CoreModules>;
  /** the endpoints, once connect found them (undefined before, and after close) */
  endpoints: Endpoints | undefined;
  /** the core's modules and the endpoints; INTERNAL_ERROR before connect */
  ready(): { m: CoreModules; e: Endpoints };
}

/** A group of the port's methods. */
export type ServicesModule<K extends keyof TuiServices, D = undefined> = (
  root: ServicesRoot,
  deps: D,
) => Pick<TuiServices, K>;

export function createServicesRoot(options: {
  env: NodeJS.ProcessEnv;
  sandbox: boolean;
}): ServicesRoot {
  let modules: CoreModules | undefined;
  const root: ServicesRoot = {
    env: options.env,
    sandbox: options.sandbox,
    endpoints: undefined,
    async load() {
      modules ??= await loadModules();
      return modules;
    },
    ready() {
      if (!modules || !root.endpoints)
        throw new AppError(ErrorCode.INTERNAL_ERROR, 'not connected yet');
      return { m: modules, e: root.endpoints };
    },
  };
  return root;
}

type Mounted<T extends readonly object[]> = T extends readonly [
  infer Head,
  ...infer Rest extends readonly object[],
]
  ? Head & Mounted<Rest>
  : unknown;

/** The modules' methods on one object (getters stay getters); a name given twice is a bug. */
export function mountServices<T extends readonly object[]>(...slices: T): Mounted<T> {
  const services = {};
  for (const slice of slices) {
    for (const name of Object.keys(slice))
      if (Object.hasOwn(services, name)) throw new Error(`service ${name} registered twice`);
    Object.defineProperties(services, Object.getOwnPropertyDescriptors(slice));
  }
  return services as Mounted<T>;
}
