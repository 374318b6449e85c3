/**
 * The headless command of an action kind, from its declaration (cli/core/actions/kinds.ts;
 * docs/architecture.md "Adding a leg type"): the flags and arguments it parses, its
 * `--help`, and the request it sends — one path for every kind that only parses (`send`, `stake`,
 * `borrow`, …). A command word may plan several kinds (`unstake`, and `unstake --complete`: the
 * kind whose command names the switch). Every parameter type has its reading here (`READ`): a
 * new type without one fails typecheck. Light at import: the core and the renderers load once
 * the arguments parse (runSigning).
 */
import type { CommandContext, CommandResult } from './context.js';
import type { ArgToken } from './args.js';
import { collateralOf } from './lending-command.js';
import { LIST_ITEMS, parsePairList } from './pairs.js';
import {
  parseSigningArgs,
  runSigning,
  SIGNING_HELP,
  SIGNING_OPTIONS_HELP,
} from './swap-command.js';
import { AppError, ErrorCode, isAppError, usageError } from '../../shared/errors.js';
import type { RebalanceView } from '../core/actions/rebalance.js';
import {
  ACTION_KIND_NAMES,
  ACTION_KINDS,
  type ActionKind,
  type AnswerCode,
  type KindDeclaration,
} from '../core/actions/kinds.js';
import type { ListType, Param, ParamType, ParamValues } from '../core/actions/kind-params.js';
import type { AcknowledgmentId } from '../core/actions/acknowledgments.js';
import { HELP_PROSE } from './kind-help.js';

/** The command word of a kind (`unstake --complete` → `unstake`) and its switch (`complete`). */
const commandWord = (kind: ActionKind): string => ACTION_KINDS[kind].command.split(' ')[0] ?? '';
const switchOf = (kind: ActionKind): string | undefined =>
  /^--([a-z-]+)$/.exec(ACTION_KINDS[kind].command.split(' ')[1] ?? '')?.[1];

/** The kinds a command word plans, in the table's order. */
const kindsOf = (word: string): ActionKind[] =>
  ACTION_KIND_NAMES.filter((k) => commandWord(k) === word);

/**
 * Each acknowledgment a kind can ask, given up front by a flag (output.ts REMEDY_WORDS words the
 * remedy); the swaps' two are swap-command.ts's. `nothing`: why it means nothing to another kind.
 */
const ACK_FLAGS: {
  readonly [A in AcknowledgmentId]: { flag: string; help: string; nothing: string } | undefined;
} = {
  'high-impact': undefined,
  'high-slippage': undefined,
  'exit-restart': {
    flag: 'restart-exit',
    help: "accept that a new exit restarts the running exit's timer",
    nothing: 'it starts no exit',
  },
  'low-health': {
    flag: 'accept-low-health',
    help: 'accept a health factor left below 1.2 (at or below 1 is always refused)',
    nothing: 'it leaves no health factor lower',
  },
  'unknown-pool': {
    flag: 'accept-unknown-pool',
    help: 'use a pool named by address that is not a known one',
    nothing: 'it names no pool',
  },
};

/** Where each kind is offered (its screen, else its command): a flag of one is parsed by all. */
const familyOf = (kind: ActionKind): string => ACTION_KINDS[kind].via ?? commandWord(kind);

/** The acknowledgment flags a command parses: those its kinds' family can ask. */
function ackFlagsOf(kinds: readonly ActionKind[]): AcknowledgmentId[] {
  const families = new Set(kinds.map(familyOf));
  const ids = ACTION_KIND_NAMES.filter((k) => families.has(familyOf(k))).flatMap(
    (k) => ACTION_KINDS[k].acknowledges ?? [],
  );
  return [...new Set(ids)].filter((id) => ACK_FLAGS[id] !== undefined);
}

const swaps = (info: KindDeclaration): boolean =>
  info.acknowledges?.includes('high-slippage') === true;

type Raw = string | boolean | string[] | undefined;

/** A list flag's items: repeated (`each`) or comma separated. */
const items = (raw: Raw, p: Param): string[] => {
  if (raw === undefined) return [];
  const spelling = p.headless;
  if ('list' in spelling && spelling.list === 'commas') return String(raw).split(',');
  return Array.isArray(raw) ? raw : [String(raw)];
};

const flagOf = (p: Param): string => ('flag' in p.headless ? `--${p.headless.flag}` : '');

/** How the headless face reads each parameter type from what was typed. */
const READ: { readonly [T in ParamType]: (raw: Raw, p: Param) => ParamValues[T] | undefined } = {
  amount: (raw) => (typeof raw === 'string' ? raw : undefined),
  'amount-or-all': (raw) => (typeof raw === 'string' ? raw : undefined),
  token: (raw) => (typeof raw === 'string' ? raw : undefined),
  address: (raw) => (typeof raw === 'string' ? raw : undefined),
  // an absent validator goes to the core as '', for it to refuse in its own words
  validator: (raw) => (typeof raw === 'string' ? raw : ''),
  pool: (raw) => (typeof raw === 'string' ? raw : undefined),
  pairs: (raw, p) =>
    raw === undefined
      ? undefined
      : 'list' in p.headless && p.headless.list === 'commas'
        ? parsePairList(String(raw), flagOf(p))
        : items(raw, p).map((item) => LIST_ITEMS.pairs(item, flagOf(p))),
  transfers: (raw, p) => items(raw, p).map((item) => LIST_ITEMS.transfers(item, flagOf(p))),
  supplies: (raw, p) => items(raw, p).map((item) => LIST_ITEMS.supplies(item, flagOf(p))),
  stakes: (raw, p) => items(raw, p).map((item) => LIST_ITEMS.stakes(item, flagOf(p))),
  allocation: (raw) => (typeof raw === 'string' ? raw : undefined),
  percent: (raw) => (typeof raw === 'string' ? raw : undefined),
  usd: (raw) => (typeof raw === 'string' ? raw : undefined),
  switch: (raw) => raw === true,
};

/** The kind's parameters spelled as arguments, in their places. */
const positionalsOf = (info: KindDeclaration): Array<[string, Param, number, string]> =>
  Object.entries(info.params)
    .flatMap(([name, p]): Array<[string, Param, number, string]> =>
      'positional' in p.headless ? [[name, p, p.headless.positional, p.headless.word]] : [],
    )
    .sort((a, b) => a[2] - b[2]);

/** The kind's parameters spelled as flags. */
const flagsOf = (info: KindDeclaration): Array<[string, Param & { headless: { flag: string } }]> =>
  Object.entries(info.params).flatMap(([name, p]) =>
    'flag' in p.headless ? [[name, p as Param & { headless: { flag: string } }]] : [],
  );

/** `send <amount> <token> <to>`, `unstake --complete --validator V`, `batch [--swap …]… [options]`. */
function usageLine(kind: ActionKind): string {
  const info = ACTION_KINDS[kind];
  const words = positionalsOf(info).map(([, , , word]) => word);
  const value = (p: Param & { headless: { flag: string } }): string =>
    'value' in p.headless ? p.headless.value : '';
  const flags = flagsOf(info)
    .filter(([, p]) => p.required)
    .map(([, p]) => `--${p.headless.flag} ${value(p)}`);
  // a list given item by item: each flag, repeated
  const lists = flagsOf(info)
    .filter(([, p]) => !p.required && 'list' in p.headless && p.headless.list === 'each')
    .map(([, p]) => `[--${p.headless.flag} ${value(p)}]…`);
  return [info.command, ...words, ...flags, ...lists, '[options]'].join(' ');
}

/** One flag's help line: the help wrapped at 100 columns, under its column. */
function line(flag: string, help: string): string {
  const rows: string[] = [];
  let row = '';
  for (const word of help.split(' ')) {
    if (row !== '' && 22 + row.length + 1 + word.length > 100) {
      rows.push(row);
      row = word;
    } else row = row === '' ? word : `${row} ${word}`;
  }
  rows.push(row);
  const pad = ' '.repeat(22);
  const head = flag.length < 20 ? `  ${flag.padEnd(20)}` : `  ${flag}\n${pad}`;
  return head + rows.join(`\n${pad}`);
}

/** The command's `--help`, from its kinds' declarations. */
export function helpOf(word: string): string {
  const kinds = kindsOf(word);
  const [first = 'send'] = kinds;
  const usage = kinds.map((k, i) => `${i === 0 ? 'Usage:' : '      '} finance-tui ${usageLine(k)}`);
  const flags = new Map<string, string>();
  for (const k of kinds) {
    const info = ACTION_KINDS[k];
    for (const [, p] of flagsOf(info)) {
      const value = p.type === 'switch' ? '' : ` ${'value' in p.headless ? p.headless.value : ''}`;
      flags.set(p.headless.flag, line(`--${p.headless.flag}${value}`, p.help));
    }
    const switchName = switchOf(k);
    if (switchName !== undefined) flags.set(switchName, line(`--${switchName}`, info.summary));
  }
  for (const id of kinds.flatMap((k) => ACTION_KINDS[k].acknowledges ?? [])) {
    const ack = ACK_FLAGS[id];
    if (ack !== undefined) flags.set(ack.flag, line(`--${ack.flag}`, ack.help));
  }
  const prose =
    HELP_PROSE[first] ?? `${ACTION_KINDS[first].about} Signs nothing unless --yes is given.`;
  return `${usage.join('\n')}\n\n${prose}\n\n${[...flags.values()].join('\n')}\n${
    swaps(ACTION_KINDS[first]) ? SIGNING_OPTIONS_HELP : SIGNING_HELP
  }`;
}

/** `a`, `a and b`, `a, b and c`. */
const andList = (words: readonly string[]): string =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;

/** The command of a word: parse by the declaration, then plan (and with --yes sign) the request. */
export const commandFor =
  (word: string) =>
  async (ctx: CommandContext): Promise<CommandResult> => {
    const kinds = kindsOf(word);
    const acks = ackFlagsOf(kinds);
    const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = {};
    for (const k of kinds) {
      for (const [, p] of flagsOf(ACTION_KINDS[k]))
        options[p.headless.flag] = {
          type: p.type === 'switch' ? 'boolean' : 'string',
          ...('list' in p.headless && p.headless.list === 'each' ? { multiple: true } : {}),
        };
      const switchName = switchOf(k);
      if (switchName !== undefined) options[switchName] = { type: 'boolean' };
    }
    for (const id of acks) options[ACK_FLAGS[id]?.flag ?? id] = { type: 'boolean' };
    const anySwaps = kinds.some((k) => swaps(ACTION_KINDS[k]));
    const parsed = parseSigningArgs(ctx.argv, options, { swaps: anySwaps });
    // the help text only when asked for (~6 ms of a trade's loaded profile built it every time)
    if (parsed.options.help) {
      const help = helpOf(word);
      return { data: { usage: help }, human: () => help };
    }
    const kind =
      kinds.find((k) => {
        const s = switchOf(k);
        return s !== undefined && parsed.values[s] === true;
      }) ??
      kinds.find((k) => switchOf(k) === undefined) ??
      kinds[0];
    if (kind === undefined) throw usageError(`unknown command ${word}`);
    const info = ACTION_KINDS[kind];
    const acknowledged = [...(parsed.options.acknowledged ?? [])];
    for (const id of acks) {
      const ack = ACK_FLAGS[id];
      if (ack === undefined || parsed.values[ack.flag] !== true) continue;
      if (info.acknowledges?.includes(id) !== true) {
        const can = ACTION_KIND_NAMES.filter((k) => ACTION_KINDS[k].acknowledges?.includes(id));
        throw usageError(
          `--${ack.flag} means nothing to ${info.command}: ${ack.nothing} (only ${andList(can.map((k) => ACTION_KINDS[k].command))} can)`,
        );
      }
      acknowledged.push(id);
    }
    const values = readValues(kind, parsed.values, parsed.positionals, parsed.tokens);
    const request = info.request(values as never);
    try {
      return await runSigning(ctx, { ...parsed.options, acknowledged }, request);
    } catch (error) {
      return answerOf(info, error);
    }
  };

/**
 * How the headless face words each answer a kind may give instead of a plan (`answers` in
 * kinds.ts), from the refusal's details: loaded once it is needed.
 */
const ANSWER_WORDS: {
  readonly [C in AnswerCode]: (details: Record<string, unknown>) => Promise<string>;
} = {
  ALREADY_BALANCED: async (details) =>
    (await import('./portfolio-render.js')).renderBalanced(details.rebalance as RebalanceView),
};

/**
 * The kind's answer when the refusal is the one it declares (nothing to do: exit 0, nothing
 * signed, the refusal's message and details); any other error is thrown on.
 */
async function answerOf(info: KindDeclaration, error: unknown): Promise<CommandResult> {
  const answer = info.answers;
  if (answer === undefined || !isAppError(error) || error.code !== answer.code) throw error;
  const details = error.details ?? {};
  const words = await ANSWER_WORDS[answer.code](details);
  return {
    data: { status: answer.status, signed: false, message: error.message, ...details },
    human: () => words,
  };
}

/** How each list type's item is called where a count of them is refused. */
const ITEM_WORDS: { readonly [T in ListType]: [one: string, many: string] } = {
  pairs: ['swap', 'pairs'],
  transfers: ['transfer', 'transfers'],
  supplies: ['supply', 'supplies'],
  stakes: ['stake', 'stakes'],
};

/**
 * A list held to its declared bounds (`items`), as the tool server's schema holds it, before
 * anything is asked: more is BATCH_LIMIT_EXCEEDED, fewer a usage error naming the kind that takes
 * fewer (`instead`: "for one swap use: trade <amount> <from> <to>").
 */
function checkItems(p: Param & { headless: { flag: string } }, count: number): void {
  const { items } = p;
  if (items === undefined || !(p.type in ITEM_WORDS)) return;
  const [one, many] = ITEM_WORDS[p.type as ListType];
  const flag = `--${p.headless.flag}`;
  if (count > items.max)
    throw new AppError(
      ErrorCode.BATCH_LIMIT_EXCEEDED,
      `${flag}: at most ${items.max} ${many} (got ${count})`,
    );
  if (count < items.min) {
    const instead =
      items.instead === undefined
        ? ''
        : `; for one ${one} use: ${usageLine(items.instead).replace(/ \[options\]$/, '')}`;
    throw usageError(`${flag} needs ${items.min} to ${items.max} ${many} (got ${count})${instead}`);
  }
}

/** The declared parameters' values from the flags and arguments given. */
function readValues(
  kind: ActionKind,
  given: Record<string, Raw>,
  positionals: string[],
  tokens: ArgToken[],
): Record<string, unknown> {
  const info = ACTION_KINDS[kind];
  const values: Record<string, unknown> = {};
  const places = positionalsOf(info);
  let rest = positionals;
  for (const [name, p] of flagsOf(info)) {
    const raw = given[p.headless.flag];
    const missing = raw === undefined || (typeof raw === 'string' && raw.trim() === '');
    const value = 'value' in p.headless ? p.headless.value : '';
    if (missing && p.required && p.type !== 'validator')
      throw usageError(
        'example' in p.headless && p.headless.example !== undefined
          ? `--${p.headless.flag} is required (e.g. --${p.headless.flag} ${p.headless.example})`
          : `--${p.headless.flag} ${value} is required: ${p.help}`,
      );
    if (!missing && p.type === 'token') {
      const amountInto = 'amountInto' in p.headless ? p.headless.amountInto : undefined;
      if (amountInto !== undefined) {
        const c = collateralOf(raw, positionals, tokens, places.length);
        values[name] = c.token;
        values[amountInto] = c.amount;
        rest = c.rest;
        continue;
      }
      // a token alone: an amount before it is refused, never taken for the token
      if (
        /^[-+]?[0-9.]+$/.test(String(raw).trim().split(/\s+/)[0] ?? '') ||
        /\s/.test(String(raw).trim())
      )
        throw usageError(`${info.command} takes --${p.headless.flag} ${value} (no amount)`);
    }
    values[name] = READ[p.type](raw, p);
    if (Array.isArray(values[name])) checkItems(p, values[name].length);
  }
  const required = places.filter(([, p]) => p.required).length;
  if (places.length === 0 && rest.length > 0)
    throw usageError(
      `${info.command} takes no arguments but its flags (got "${String(rest[0]).slice(0, 40)}")`,
    );
  if (rest.length < required || rest.length > places.length)
    throw usageError(
      `expected ${places.map(([, , , w]) => w).join(' ')} (got ${rest.length} argument${rest.length === 1 ? '' : 's'}); see finance-tui ${commandWord(kind)} --help`,
    );
  for (const [name, p, at] of places) values[name] = READ[p.type](rest[at], p);
  return values;
}
