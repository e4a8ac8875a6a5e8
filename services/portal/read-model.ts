import type { PortalAccounts, PortalAccountsReader } from './ports.js';

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until the read model's row of `accountId` reflects the account's stream as it is now (its version), or
 * until `timeoutMs` of real time has passed: the read model is eventually consistent, and a request that just
 * wrote should let the next one find what it wrote. Returns whether it caught up.
 */
export async function waitForReadModel(
  accounts: Pick<PortalAccounts, 'load'>,
  reader: Pick<PortalAccountsReader, 'byId'>,
  accountId: string,
  timeoutMs = 2_000,
): Promise<boolean> {
  const { version } = await accounts.load(accountId);
  const deadline = Date.now() + timeoutMs;
  for (let delay = 5; ; delay = Math.min(delay * 2, 100)) {
    const view = await reader.byId(accountId);
    if (view && view.version >= version) return true;
    if (Date.now() >= deadline) return false;
    await sleep(delay);
  }
}
