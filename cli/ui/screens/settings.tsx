/**
 * Settings: default slippage, the gas token (what gas is paid in when the server does not sponsor
 * it: any registry token of the network; the paymaster's build refuses one it does not take),
 * network, auth server URL. ↑/↓ pick a row, ←/→ change it, Enter saves to settings.json (under
 * its lock, waited for without freezing the screen: the root says when another finance-tui
 * holds it).
 * Above them, what this session really talks to: a sandbox session runs on the sandbox's own
 * local services (mainnet-like, no real funds), whatever the saved network and server say.
 */
import { Box, Text } from 'ink';
import { useState } from 'react';
import { formatBpsAsPercent } from '../../../shared/fees.js';
import { swapsSupported } from '../../core/actions/rules.js';
import { useUi } from '../context.js';
import { describeFailure, type Failure } from '../failure.js';
import { type Bindings, useKeys } from '../hooks/use-keys.js';
import type { Environment, SettingsView } from '../services.js';
import { ErrorLine, Title } from '../widgets/layout.js';
import { TextField } from '../widgets/text-field.js';
import { SLIPPAGE_PRESETS } from './trade-state.js';

const ROWS = ['slippage', 'gasToken', 'network', 'serverUrl'] as const;
type Row = (typeof ROWS)[number];

function cycle<T>(values: readonly T[], current: T, step: number): T {
  const i = values.indexOf(current);
  return values[((((i < 0 ? 0 : i) + step) % values.length) + values.length) % values.length] as T;
}

export function SettingsScreen() {
  const { services, dispatch, theme, state } = useUi();
  const env = state.environment;
  const [draft, setDraft] = useState<SettingsView>(() => services.settings());
  const [row, setRow] = useState<Row>('slippage');
  const [failure, setFailure] = useState<Failure | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  const [saving, setSaving] = useState(false);
  const gasTokens = services.tokens().map((t) => t.symbol);
  const edit = (patch: Partial<SettingsView>): void => {
    setDraft((d) => ({ ...d, ...patch }));
    setSaved(false);
    setFailure(undefined);
  };
  const change = (step: number): void => {
    if (row === 'slippage')
      edit({
        slippageBps: cycle(
          SLIPPAGE_PRESETS,
          draft.slippageBps as (typeof SLIPPAGE_PRESETS)[number],
          step,
        ),
      });
    if (row === 'gasToken') edit({ gasToken: cycle(gasTokens, draft.gasToken, step) });
    if (row === 'network') edit({ network: draft.network === 'mainnet' ? 'sepolia' : 'mainnet' });
  };
  const bindings: Bindings = {
    up: () => setRow((r) => cycle(ROWS, r, -1)),
    down: () => setRow((r) => cycle(ROWS, r, 1)),
    submit: () => {
      if (saving) return;
      setSaving(true);
      setFailure(undefined);
      void services
        .updateSettings({
          slippageBps: draft.slippageBps,
          gasToken: draft.gasToken,
          network: draft.network,
          serverUrl: draft.serverUrl.trim(),
        })
        .then(
          (view) => {
            setDraft(view);
            setSaved(true);
          },
          (error: unknown) => setFailure(describeFailure(error)),
        )
        .finally(() => setSaving(false));
    },
    back: () => dispatch({ type: 'back' }),
  };
  if (row !== 'serverUrl') {
    bindings.left = () => change(-1);
    bindings.right = () => change(1);
  }
  useKeys(bindings, {
    wording: { submit: 'save', left: 'change', right: 'change', up: 'row', down: 'row' },
  });
  const mark = (r: Row): string => (row === r ? '› ' : '  ');
  return (
    <Box flexDirection="column">
      <Title>Settings</Title>
      {env ? <InUse env={env} /> : null}
      <Text color={theme.muted}>
        {env?.sandbox
          ? 'Saved settings (used when the app runs without the sandbox):'
          : 'Saved settings:'}
      </Text>
      <Text color={row === 'slippage' ? theme.accent : undefined}>
        {mark('slippage')}
        {'Default slippage  '}
        {formatBpsAsPercent(draft.slippageBps)}
      </Text>
      <Text color={row === 'gasToken' ? theme.accent : undefined}>
        {mark('gasToken')}
        {'Gas token         '}
        {draft.gasToken} (when gas is not sponsored)
      </Text>
      <Text color={row === 'network' ? theme.accent : undefined}>
        {mark('network')}
        {'Network           '}
        {draft.network}
        {swapsSupported(draft.network) ? '' : ' (no swaps on Sepolia)'}
      </Text>
      <Box>
        <Text color={row === 'serverUrl' ? theme.accent : undefined}>
          {mark('serverUrl')}
          {'Auth server URL   '}
        </Text>
        <TextField
          value={draft.serverUrl}
          onChange={(serverUrl) => edit({ serverUrl })}
          focused={row === 'serverUrl'}
          maxLength={200}
        />
      </Box>
      {failure ? <ErrorLine message={failure.message} hint={failure.next} /> : null}
      {saving ? <Text color={theme.muted}>saving…</Text> : null}
      {saved ? (
        <Text color={theme.success}>saved; the network and server apply from the next start</Text>
      ) : null}
    </Box>
  );
}

/** What this session talks to now, as connect() resolved it. */
function InUse({ env }: { env: Environment }) {
  const { theme } = useUi();
  const urls = env.urls;
  const rows: Array<[string, string | undefined]> = [
    ['Auth server', urls?.server ?? env.serverUrl],
    ['Aggregator', urls?.aggregator],
    [
      'Chain RPC',
      urls === undefined ? undefined : (urls.chain ?? `the public ${env.network} node`),
    ],
    ['Paymaster', urls?.paymaster],
    ['Identity', urls?.identity],
  ];
  return (
    <Box flexDirection="column" marginBottom={1}>
      <Text>
        In use now:{' '}
        <Text color={env.sandbox ? theme.badge : undefined}>
          {env.sandbox ? `the sandbox (local, ${env.network}-like, no real funds)` : env.network}
        </Text>
      </Text>
      {rows.map(([label, url]) =>
        url === undefined ? null : (
          <Text key={label} wrap="wrap">
            {'  '}
            {label.padEnd(12)} {url}
          </Text>
        ),
      )}
    </Box>
  );
}
