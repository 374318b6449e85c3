/**
 * The core's progress, as data (docs/architecture.md "The action pipeline"): one union of events,
 * each with the fields a face needs. No face parses a message; the words for a person are
 * `describeEvent`, kept here so every face says the same thing.
 */

/** The stages of an action (send, trade, multi-swap, batch, …) in pipeline order. */
export type ActionEvent =
  /** fetching routes and calldata for `swaps` swaps (`batch`: one batch request) */
  | { kind: 'quoting'; swaps: number; batch: boolean }
  /** a confirmed quote went stale before signing: re-fetching `swaps` of them */
  | { kind: 'requoting'; swaps: number }
  | { kind: 'checking-account' }
  /** the paymaster builds the transaction; `deploy`: the account's first, which deploys it */
  | { kind: 'building'; deploy: boolean }
  /** no sponsored gas: paying gas in `gasToken` (a symbol) */
  | { kind: 'fee-mode'; gasToken: string }
  | { kind: 'simulating' }
  | { kind: 'signing' }
  | { kind: 'submitting' }
  /** the transaction exists on the network from here on, whatever happens next */
  | { kind: 'submitted'; hash: string }
  | { kind: 'confirming'; hash: string }
  | { kind: 'confirmed'; hash: string; status: 'SUCCEEDED' | 'REVERTED' };

/** Everything else the core reports while it works. */
type ServiceEvent =
  | { kind: 'sandbox-start' }
  /** the bundled auth server is being started at `url`, logging into `logDir` */
  | { kind: 'server-start'; url: string; logDir: string };

export type ProgressEvent = ActionEvent | ServiceEvent;

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** One line for a person: the same words in every face. */
export function describeEvent(event: ProgressEvent): string {
  switch (event.kind) {
    case 'sandbox-start':
      return 'starting the local sandbox…';
    case 'server-start':
      return `starting the auth server at ${event.url} (logs in ${event.logDir})…`;
    case 'quoting':
      return `quoting ${plural(event.swaps, 'swap')}${event.batch ? ' (one batch request)' : ''}…`;
    case 'requoting':
      return `the quote is older than 30 s: re-quoting ${plural(event.swaps, 'swap')}…`;
    case 'checking-account':
      return 'checking the account…';
    case 'building':
      return event.deploy
        ? 'asking the paymaster to build the transaction (it also deploys your account)…'
        : 'asking the paymaster to build the transaction…';
    case 'fee-mode':
      return `no sponsored gas here; paying gas in ${event.gasToken}`;
    case 'simulating':
      return 'simulating the transaction…';
    case 'signing':
      return 'signing…';
    case 'submitting':
      return 'sending…';
    case 'submitted':
      return `sent ${event.hash}; waiting for confirmation…`;
    case 'confirming':
      return `waiting for confirmation of ${event.hash}…`;
    case 'confirmed':
      return event.status === 'SUCCEEDED' ? `confirmed ${event.hash}` : `${event.hash} reverted`;
  }
}
