/**
 * The emulators' one rule for an error Fastify raised (a bad body, a size limit): a 4xx keeps its
 * status, anything else is a 500 that names nothing internal. Each emulator words its body in its
 * own service's shape (docs/architecture.md "Sandbox").
 */
export function emulatorStatus(error: { statusCode?: number }): number {
  return error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500
    ? error.statusCode
    : 500;
}
