/** Human text of the grant commands (docs/commands.md "grant"). The token is never in it. */
import type { GrantListItem } from '../core/grants.js';

function amounts(grant: GrantListItem): string[] {
  return grant.daily.map(
    (d) => `  ${d.amount} ${d.symbol} a day (rolling 24 h): ${d.spent} spent, ${d.left} left`,
  );
}

function recipients(grant: GrantListItem): string[] {
  return grant.recipients.length === 0
    ? ['  pays no one (transfers refused; swaps, staking and lending for the wallet itself)']
    : grant.recipients.map((r) => `  may pay ${r}`);
}

function renderGrant(grant: GrantListItem): string {
  return [
    `grant ${grant.id} (${grant.status}, expires ${grant.expiresAt})`,
    ...amounts(grant),
    ...recipients(grant),
  ].join('\n');
}

export function renderGrantCreated(data: { grant: GrantListItem; file: string }): string {
  return `${renderGrant(data.grant)}\nthe grant's token is in ${data.file} (mode 0600): give only that file to the agent (finance-tui mcp --grant ${data.file}); revoke with finance-tui grant revoke ${data.grant.id}\n`;
}

export function renderGrantList(data: { grants: GrantListItem[] }): string {
  if (data.grants.length === 0) return 'no grants\n';
  return `${data.grants.map(renderGrant).join('\n\n')}\n`;
}

export function renderGrantRevoked(data: { grant: GrantListItem }): string {
  return `revoked: ${renderGrant(data.grant)}\n`;
}
