/**
 * Staking: the wallet's positions (staked, unclaimed, exiting and when withdrawable), read again
 * every LIVE_READ_MS while open and at once with Ctrl+R (the Lending screen's mechanism,
 * hooks/use-periodic-read.ts: never two reads at once), and one
 * form for the staking actions the kinds table routes here (↑/↓ chooses), its fields the chosen
 * kind's declared parameters (kind-form.ts): the validator (a preset name or a staker address)
 * and, to stake or exit, the amount. Enter plans
 * it through the core (checked, built, simulated; nothing signed) and opens the one review every
 * plan has, which asks the typed word for any acknowledgment the core lists (an exit that
 * restarts a running timer).
 */
import { Box, Text } from 'ink';
import { useState } from 'react';
import { ACTION_KINDS, kindsVia } from '../../core/actions/kinds.js';
import type { StakingDocument } from '../../core/staking.js';
import { useUi } from '../context.js';
import { useKindFormKeys } from '../hooks/use-kind-form-keys.js';
import { usePlanReview } from '../hooks/use-plan-review.js';
import { LIVE_READ_MS, usePeriodicRead } from '../hooks/use-periodic-read.js';
import type { StakingForm } from '../state.js';
import { FieldLabel, LABEL_WIDTH, ReadStatus, Title } from '../widgets/layout.js';
import { PlanStatus } from '../widgets/plan-status.js';
import {
  type Field,
  type FormSpec,
  type RendersAll,
  fieldsOf,
  formRequest,
  hintOf,
  newForm,
  valueOf,
} from './kind-form.js';
import { TextField } from '../widgets/text-field.js';

/** The actions this screen offers: the kinds table's, in its order (kinds.ts kindsVia). */
const KINDS = kindsVia('Staking');
/** What is staked and exited: the validators' STRK delegation pools (the core stakes STRK only). */
const STAKED_TOKEN = 'STRK';
const AMOUNT_LABEL = `Amount (${STAKED_TOKEN})`;
/** One label column for every action, as wide as the amount's label and a space. */
const LABEL_COLUMN = Math.max(LABEL_WIDTH, AMOUNT_LABEL.length + 1);

/**
 * The form takes each staking kind's declared validator and amount (kind-form.ts); the token is
 * not asked (STRK, the only one a delegation pool takes).
 */
const STAKING_FORM: FormSpec = { types: ['validator', 'amount'] };

/** A staking kind whose required parameters this form cannot render fails typecheck here. */
const rendersAll: RendersAll<'Staking', 'validator' | 'amount'> = true;
void rendersAll;

/** A field's label: an amount is of STRK. */
const labelOf = (field: Field): string =>
  field.param.type === 'amount' ? AMOUNT_LABEL : field.param.label;

export function StakingScreen({ initial }: { initial?: StakingForm | undefined }) {
  const { services, theme } = useUi();
  const [form, setForm] = useState<StakingForm>(() => initial ?? newForm(KINDS, STAKING_FORM));
  // the positions last read stay on screen while they are read again, and after a failed read;
  // every LIVE_READ_MS unless the run's test knob says
  const everyMs = services.liveReadMs ?? LIVE_READ_MS;
  const {
    loading,
    shown: doc,
    read,
  } = usePeriodicRead<StakingDocument>(services.staking?.bind(services), everyMs);
  const review = usePlanReview();
  const set = (patch: Partial<StakingForm>): void => setForm((f) => ({ ...f, ...patch }));

  const fields = fieldsOf(form.kind, STAKING_FORM);
  // another action keeps what is typed, and the cursor where the action has that field
  const cycle = (step: number): void => {
    const at = (KINDS.indexOf(form.kind) + step + KINDS.length) % KINDS.length;
    const kind = KINDS[at] ?? form.kind;
    const slots = fieldsOf(kind, STAKING_FORM).map((f) => f.slot);
    set({ kind, focus: slots.includes(form.focus) ? form.focus : (slots[0] ?? form.focus) });
  };
  // what Enter would plan now: a refusal is said only while the form still asks for it
  const request = formRequest(form, STAKING_FORM, services.settings().slippageBps);
  useKindFormKeys({
    form,
    spec: STAKING_FORM,
    cycle,
    focus: (slot) => set({ focus: slot }),
    request,
    returnTo: { name: 'staking', form },
    review,
    reload: read,
  });

  return (
    <Box flexDirection="column">
      <Title>Staking</Title>
      <ReadStatus
        loading={loading}
        shown={doc !== undefined}
        busy="reading validators and positions…"
      />
      {doc !== undefined ? (
        <Box flexDirection="column">
          {doc.positions.length === 0 ? <Text color={theme.muted}>No positions.</Text> : null}
          {doc.positions.map((p) => (
            <Text key={p.pool} wrap="wrap">
              {p.validator}: staked {p.staked.amount} {p.token}, unclaimed{' '}
              {p.unclaimedRewards.amount} {p.token}
              {p.exiting.baseUnits === '0'
                ? ''
                : `, exiting ${p.exiting.amount} ${p.token} (withdrawable at ${p.withdrawableAt ?? '?'})`}
              {p.memberCan === null
                ? ''
                : ` — its staker was removed: no more rewards, no new stake${p.memberCan.length === 0 ? '' : `; you can still ${p.memberCan.map((kind) => `${ACTION_KINDS[kind].label}${kind === 'unstake' ? ' (withdrawable at once)' : ''}`).join(', ')}`}`}
            </Text>
          ))}
          <Text color={theme.muted} wrap="wrap">
            Validators:{' '}
            {doc.validators
              .map(
                (v) =>
                  `${v.name} (${v.shareOfTotalStake === null ? 'no' : `${v.shareOfTotalStake} %`} of the total stake${v.stakerRemoved ? '; staker removed' : v.active ? '' : '; leaving'})`,
              )
              .join(', ')}
          </Text>
          <Text color={theme.muted} wrap="truncate-end">
            read again every {everyMs / 1000} s while open
            {loading.status === 'running' ? ' · reading…' : ''}
          </Text>
        </Box>
      ) : null}
      <Box marginTop={1}>
        <FieldLabel label="Action" focused={false} width={LABEL_COLUMN} />
        <Text>↑ {ACTION_KINDS[form.kind].label} ↓</Text>
      </Box>
      {fields.map((f) => (
        <Box key={f.slot}>
          <FieldLabel label={labelOf(f)} focused={form.focus === f.slot} width={LABEL_COLUMN} />
          <TextField
            value={valueOf(form, f.slot)}
            onChange={(value) =>
              setForm((now) => ({ ...now, values: { ...now.values, [f.slot]: value } }))
            }
            focused={form.focus === f.slot && !review.running}
            maxLength={f.param.type === 'validator' ? 80 : 40}
            placeholder={hintOf(f)}
          />
        </Box>
      ))}
      <Box marginTop={1} flexDirection="column">
        <PlanStatus
          review={review}
          busy="checking, building and simulating…"
          // a refusal is said while the form still asks for what was refused: a change clears it
          failure={review.failureWhile(request)}
        />
      </Box>
    </Box>
  );
}
