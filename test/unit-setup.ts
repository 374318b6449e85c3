/**
 * Global setup of the unit project: before any unit test runs, the unit rule of test/kinds.ts is
 * checked over the whole tree, so a unit test that spawns a process or needs dist/ fails the run
 * with its name, instead of quietly needing the build (docs/architecture.md "Tests").
 */
import { fileURLToPath } from 'node:url';
import { unitRuleProblems } from './kinds.js';

export default function setup(): void {
  const problems = unitRuleProblems(fileURLToPath(new URL('..', import.meta.url)));
  if (problems.length > 0)
    throw new Error(
      `unit tests must start no process and need no build (docs/architecture.md "Tests"); ` +
        `move these to test/ or drop what they spawn:\n  ${problems.join('\n  ')}`,
    );
}
