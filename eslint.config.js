// ESLint (flat config) with typescript-eslint's recommended rules, without type information:
// tsc already type-checks, and a second type-aware program would double the lint time.
// Beside them: the React hooks rules, no import cycles, and the client's layers
// (docs/architecture.md "Layout"; the choices are in docs/decisions.md).
import js from '@eslint/js';
import globals from 'globals';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** The faces of the client and the loose files of cli/'s root: what no lower layer imports. */
const FACES = [
  'cli/commands',
  'cli/headless',
  'cli/ui',
  'cli/mcp',
  'cli/bin.ts',
  'cli/main.ts',
  'cli/run.ts',
];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.ci/.node/', 'coverage/', '.cache/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // money is bigint end to end; a float parse near an amount is a bug
      'no-restricted-globals': [
        'error',
        { name: 'parseFloat', message: 'amounts are bigint; parse decimals with shared/amount.ts' },
      ],
      'no-restricted-properties': [
        'error',
        {
          object: 'Number',
          property: 'parseFloat',
          message: 'amounts are bigint; parse decimals with shared/amount.ts',
        },
      ],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // Imports are resolved as Node resolves the built code, with a `.js` specifier standing for
    // its `.ts`/`.tsx` source (TypeScript's NodeNext rule), so no TypeScript resolver is needed.
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
          extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // the core is self-contained; the platform and the service clients serve the faces and
      // import none of them, and sit below the core: they import nothing from it either
      // (docs/architecture.md "Layout")
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...['cli/core', 'cli/platform', 'cli/clients'].map((layer) => ({
              target: `./${layer}`,
              from: FACES.map((face) => `./${face}`),
              message: `${layer} imports no face (cli/commands, cli/headless, cli/ui, cli/mcp) and no loose file of cli/ (docs/architecture.md "Layout")`,
            })),
            ...['cli/platform', 'cli/clients'].map((layer) => ({
              target: `./${layer}`,
              from: './cli/core',
              message: `${layer} imports nothing from cli/core: the outside-service clients and the platform sit below the core and hold no domain rule (docs/architecture.md "Layout")`,
            })),
          ],
        },
      ],
    },
  },
  {
    // No function over 150 lines in the program's code (issue 34: split by concern, as named
    // helpers or modules registered on a small root; docs/architecture.md "Layout"). Tests and
    // their helpers are left out.
    files: ['cli/**/*.{ts,tsx}', 'server/**/*.ts', 'sandbox/**/*.ts', 'shared/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'max-lines-per-function': ['error', { max: 150, IIFEs: true }] },
  },
  {
    // The classic hooks rules, both errors; the React Compiler's rules of `recommended` are left
    // out: this app is not compiled by it (docs/decisions.md)
    files: ['cli/ui/**/*.{ts,tsx}', '**/*.test.tsx', 'test/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
);
