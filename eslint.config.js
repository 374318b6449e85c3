// ESLint (flat config) with typescript-eslint's recommended rules, without type information:
// tsc already type-checks, and a second type-aware program would double the lint time.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.ci/.node/', 'coverage/'] },
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
);
